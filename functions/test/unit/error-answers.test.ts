import type { ErrorCode } from '../../src/errors';
import { STATUS_OF_CODE } from '../../src/http/errorAnswers';
import { openApiDocument } from '../../src/http/apiDescription/openapi';
import { allRoutes } from '../../src/http/routes';

const routes = allRoutes();

type Json = Record<string, unknown>;

/** Every (status, code) pair the API description documents for an error answer. */
function documentedAnswers(): { where: string; status: number; code: ErrorCode }[] {
  const found: { where: string; status: number; code: ErrorCode }[] = [];
  for (const [path, operations] of Object.entries(
    openApiDocument(routes).paths as Record<string, Record<string, Json>>,
  )) {
    for (const [method, operation] of Object.entries(operations)) {
      for (const [status, response] of Object.entries((operation.responses ?? {}) as Record<string, Json>)) {
        const content = response.content as Record<string, { schema?: Json }> | undefined;
        const code = (content?.['application/json']?.schema?.properties as Json | undefined)?.code as
          { enum?: ErrorCode[] } | undefined;
        for (const each of code?.enum ?? [])
          found.push({ where: `${method} ${path}`, status: Number(status), code: each });
      }
    }
  }
  return found;
}

describe('the error code table', () => {
  test('every code the API description documents is answered with the status it is documented under', () => {
    const answers = documentedAnswers();
    expect(answers.length).toBeGreaterThan(50);
    const mismatched = answers.filter(({ status, code }) => STATUS_OF_CODE[code] !== status);
    expect(mismatched).toEqual([]);
  });
});
