/**
 * Every response an integration test receives through `call()` is checked against
 * the API description: the operation exists for the method and path, the status is
 * described, the headers and the body match, and a request the service accepted is
 * one the document allows (see ../api-description.ts). A mismatch
 * rejects that call, and fails the test that saw it even if the test caught the
 * rejection (a retry loop, say): the hook below reports it after the test.
 */
import { responseProblems, type ObservedResponse, type SentRequest } from '../api-description';

const unreported: string[] = [];

afterEach(() => {
  if (unreported.length === 0) return;
  const problems = unreported.splice(0);
  throw new Error(`Responses that disagree with the API description:\n\n${problems.join('\n\n')}`);
});

export function assertDescribed(method: string, path: string, response: ObservedResponse, request?: SentRequest): void {
  const problems = responseProblems(method, path, response, request);
  if (problems.length === 0) return;
  const message =
    `${method} ${path} was answered ${response.status}, which the API description (GET /openapi.json) does not ` +
    `allow:\n  - ${problems.join('\n  - ')}\nbody: ${response.text.slice(0, 500)}`;
  unreported.push(message);
  throw new Error(message);
}
