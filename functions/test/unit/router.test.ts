import { Router } from '../../src/http/router';
import type { AnyRoute } from '../../src/http/types';
import { ApiError } from '../../src/errors';
import { errorAnswerOf, type ErrorAnswer } from '../../src/http/errorAnswers';

const route = (method: AnyRoute['method'], path: string): Pick<AnyRoute, 'method' | 'path' | 'handler'> => ({
  method,
  path,
  handler: async () => ({ body: {} }),
});

const health = route('GET', '/');
const listKiosks = route('GET', '/kiosks');
const submitTransaction = route('POST', '/kiosk/transaction');
const getKiosk = route('GET', '/kiosk/:kioskId');
const updateStatus = route('POST', '/kiosk/:kioskId/status');
const putToken = route('PUT', '/user/:userId/push-token');
const deleteToken = route('DELETE', '/user/:userId/push-token');
const revokeKey = route('DELETE', '/admin/kiosks/:kioskId/keys/:keyId');

const router = new Router([
  health,
  listKiosks,
  submitTransaction,
  getKiosk,
  updateStatus,
  putToken,
  deleteToken,
  revokeKey,
]);

function errorOf(method: string, path: string): ErrorAnswer {
  try {
    router.match(method, path);
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return errorAnswerOf(error as ApiError);
  }
  throw new Error(`expected ${method} ${path} to fail`);
}

describe('Router.match', () => {
  test('the root path', () => {
    expect(router.match('GET', '/')).toEqual({ route: health, params: {} });
  });

  test('a static path', () => {
    const match = router.match('GET', '/kiosks');
    expect(match.route).toBe(listKiosks);
    expect(match.params).toEqual({});
  });

  test('a param segment captures its value', () => {
    const match = router.match('GET', '/kiosk/kiosk-42');
    expect(match.route).toBe(getKiosk);
    expect(match.params).toEqual({ kioskId: 'kiosk-42' });
  });

  test('several params', () => {
    const match = router.match('DELETE', '/admin/kiosks/k1/keys/key-9');
    expect(match.route).toBe(revokeKey);
    expect(match.params).toEqual({ kioskId: 'k1', keyId: 'key-9' });
  });

  test('a static POST and a param GET of the same shape are told apart by method', () => {
    // POST /kiosk/transaction and GET /kiosk/:kioskId share their shape.
    expect(router.match('POST', '/kiosk/transaction').route).toBe(submitTransaction);
    const get = router.match('GET', '/kiosk/transaction');
    expect(get.route).toBe(getKiosk);
    expect(get.params).toEqual({ kioskId: 'transaction' });
  });

  test('the method chooses between routes of one path', () => {
    expect(router.match('PUT', '/user/u1/push-token').route).toBe(putToken);
    expect(router.match('DELETE', '/user/u1/push-token').route).toBe(deleteToken);
  });

  test('a trailing slash is tolerated', () => {
    expect(router.match('GET', '/kiosks/').route).toBe(listKiosks);
    expect(router.match('POST', '/kiosk/k1/status/')).toEqual({ route: updateStatus, params: { kioskId: 'k1' } });
  });

  test('only one trailing slash is tolerated', () => {
    expect(errorOf('GET', '/kiosks//').status).toBe(404);
  });

  test('HEAD matches a GET route', () => {
    expect(router.match('HEAD', '/kiosk/k1')).toEqual({ route: getKiosk, params: { kioskId: 'k1' } });
    expect(router.match('HEAD', '/').route).toBe(health);
  });

  test('params are percent-decoded', () => {
    expect(router.match('GET', '/kiosk/Caf%C3%A9%20Nord').params).toEqual({ kioskId: 'Café Nord' });
    expect(router.match('GET', '/kiosk/a%2Bb').params).toEqual({ kioskId: 'a+b' });
  });

  test.each([
    ['/unknown'],
    ['/kiosks/extra'],
    ['/kiosk'],
    ['/kiosk/k1/status/more'],
    ['/KIOSKS'],
    ['/admin/kiosks/k1/keys'],
  ])('unknown path %s is a 404', (path) => {
    const error = errorOf('GET', path);
    expect(error.status).toBe(404);
    expect(error.code).toBe('not-found');
    expect(error.message).toContain(path);
  });

  test('a wrong method is a 405 listing the allowed methods, HEAD with GET', () => {
    const error = errorOf('DELETE', '/kiosks');
    expect(error.status).toBe(405);
    expect(error.code).toBe('method-not-allowed');
    expect(error.headers.Allow).toBe('GET, HEAD');
  });

  test('405 on a path served by several methods lists them all', () => {
    const error = errorOf('GET', '/user/u1/push-token');
    expect(error.status).toBe(405);
    expect(error.headers.Allow.split(', ').sort()).toEqual(['DELETE', 'PUT']);
  });

  test('405 where a static POST and a param GET overlap lists both, and HEAD', () => {
    const error = errorOf('PUT', '/kiosk/transaction');
    expect(error.status).toBe(405);
    expect(error.headers.Allow.split(', ').sort()).toEqual(['GET', 'HEAD', 'POST']);
  });

  test('HEAD on a route without GET is a 405', () => {
    const error = errorOf('HEAD', '/kiosk/k1/status');
    expect(error.status).toBe(405);
    expect(error.headers.Allow).toBe('POST');
  });

  test.each([['/kiosk/%E0%A4%A'], ['/kiosk/%'], ['/kiosk/%zz']])('invalid percent-encoding %s is a 400', (path) => {
    const error = errorOf('GET', path);
    expect(error.status).toBe(400);
    expect(error.message).toContain('URL encoding');
  });

  test.each([
    ['..', '/kiosk/..'],
    ['.', '/kiosk/.'],
    ['an encoded ..', '/kiosk/%2E%2E'],
    ['an encoded slash', '/kiosk/a%2Fb'],
    ['a reserved __id__', '/kiosk/__name__'],
    ['129 characters', `/kiosk/${'k'.repeat(129)}`],
  ])('a param that is not a document id (%s) is a 400 naming it', (_what, path) => {
    const error = errorOf('GET', path);
    expect(error.status).toBe(400);
    expect(error.message.startsWith('kioskId ')).toBe(true);
  });

  test('128 characters are a valid param', () => {
    const id = 'k'.repeat(128);
    expect(router.match('GET', `/kiosk/${id}`).params).toEqual({ kioskId: id });
  });

  test('an empty param segment is a 400', () => {
    const error = errorOf('POST', '/kiosk//status');
    expect(error.status).toBe(400);
    expect(error.message).toContain('kioskId');
  });

  test('the second param is checked too', () => {
    const error = errorOf('DELETE', '/admin/kiosks/k1/keys/..');
    expect(error.status).toBe(400);
    expect(error.message.startsWith('keyId ')).toBe(true);
  });
});

describe('under the Hosting prefix /api', () => {
  test.each([
    ['/api', '/'],
    ['/api/', '/'],
    ['/api/kiosks', '/kiosks'],
    ['/api/kiosk/k1', '/kiosk/k1'],
    ['/api/admin/kiosks/k1/keys/key-9', '/admin/kiosks/k1/keys/key-9'],
  ])('%s is %s', (prefixed, path) => {
    const method = path.startsWith('/admin') ? 'DELETE' : 'GET';
    expect(router.match(method, prefixed)).toEqual(router.match(method, path));
    expect(router.allowedMethods(prefixed)).toEqual(router.allowedMethods(path));
  });

  test.each([['/apix'], ['/apix/kiosks'], ['/api/api/kiosks'], ['/API/kiosks'], ['/v1/api/kiosks']])(
    '%s is no path of the api: 404 naming it as requested',
    (path) => {
      const error = errorOf('GET', path);
      expect(error.status).toBe(404);
      expect(error.message).toBe(`No endpoint at ${path}`);
    },
  );

  test('a wrong method names the path as requested', () => {
    const error = errorOf('DELETE', '/api/kiosks');
    expect([error.status, error.message, error.headers.Allow]).toEqual([
      405,
      'DELETE is not allowed on /api/kiosks',
      'GET, HEAD',
    ]);
  });
});

describe('Router.allowedMethods', () => {
  test('GET paths also allow HEAD', () => {
    expect(router.allowedMethods('/kiosks')).toEqual(['GET', 'HEAD']);
    expect(router.allowedMethods('/')).toEqual(['GET', 'HEAD']);
  });

  test('paths without GET do not allow HEAD', () => {
    expect(router.allowedMethods('/kiosk/k1/status')).toEqual(['POST']);
    expect(router.allowedMethods('/user/u1/push-token').sort()).toEqual(['DELETE', 'PUT']);
  });

  test('unknown paths allow nothing', () => {
    expect(router.allowedMethods('/nowhere')).toEqual([]);
  });

  test('a trailing slash is tolerated', () => {
    expect(router.allowedMethods('/kiosks/')).toEqual(['GET', 'HEAD']);
  });
});
