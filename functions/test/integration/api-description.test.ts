import { apiDocument } from '../api-description';
import { call } from './requests';

test('GET /openapi.json serves the document every response of these tests is checked against', async () => {
  const res = await call('GET', '/openapi.json');
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(res.body).toEqual(apiDocument);
});

test('HEAD /openapi.json answers as GET does, without the body', async () => {
  const res = await call('HEAD', '/openapi.json');
  expect(res.status).toBe(200);
  expect(res.text).toBe('');
});
