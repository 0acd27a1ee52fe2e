import type { AnyRoute, Route } from '../types';
import { SERVICE_NAME, SERVICE_VERSION } from './health';

/**
 * The document as sent, built, serialised and encoded once per instance, since it never changes while it runs. Kept
 * as UTF-8 bytes: its prose has a few non-ASCII characters, so the string is two-byte, and Express would encode all
 * ~190 kB of it again on every request (~0.3 ms of CPU each; docs/performance.md, "Time above the floor").
 */
let documentBytes: Buffer | undefined;

/**
 * GET /openapi.json: the API described by itself (OpenAPI 3.1), built on the first request of an instance from
 * `describedRoutes()`, the list this route is a member of (given as a function: the list holds the route).
 */
export const openApiRoute = (describedRoutes: () => readonly AnyRoute[]): Route => ({
  method: 'GET',
  path: '/openapi.json',
  handler: async () => {
    // The builder is required here, not imported: no other request of an instance loads it.
    documentBytes ??= Buffer.from(
      JSON.stringify(
        (require('../apiDescription/openapi') as typeof import('../apiDescription/openapi')).openApiDocument(
          describedRoutes(),
        ),
      ),
    );
    return { body: {}, text: { contentType: 'application/json; charset=utf-8', content: documentBytes } };
  },
  doc: {
    operationId: 'getOpenApiDocument',
    summary: 'Get this API description',
    description:
      'This document: every operation with its parameters, request body (the very schemas the service ' +
      'validates with), every answer it can give, and the credentials it needs. Generate clients from it.',
    tag: 'Service',
    access: 'public',
    responses: {
      200: {
        description: 'An OpenAPI 3.1 document',
        // An open object; `paths` and `components` any object (what OpenAPI says of them is its own schema's).
        schema: ({ Type }) =>
          Type.Object({
            openapi: Type.String({ pattern: '^3\\.1\\.[0-9]+$' }),
            info: Type.Object({ title: Type.String(), version: Type.String({ pattern: '^1\\.' }) }),
            paths: Type.Unsafe<object>({ type: 'object' }),
            components: Type.Unsafe<object>({ type: 'object' }),
          }),
        example: {
          openapi: '3.1.0',
          info: { title: SERVICE_NAME, version: SERVICE_VERSION },
          paths: { '/': { get: { operationId: 'getHealth', summary: 'Check that the service answers' } } },
          components: {},
        },
      },
    },
  },
});
