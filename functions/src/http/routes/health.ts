import type { Route } from '../types';

export const SERVICE_NAME = 'Kiosk Rewards API';
export const SERVICE_VERSION = '1.0';

/** GET / */
export const healthRoute: Route = {
  method: 'GET',
  path: '/',
  handler: async () => ({ body: { status: 'ok', message: `${SERVICE_NAME} v${SERVICE_VERSION}` } }),
  doc: {
    operationId: 'getHealth',
    summary: 'Check that the service answers',
    description: 'Names the service and its version. Needs no credentials and reads no data.',
    tag: 'Service',
    access: 'public',
    responses: {
      200: {
        description: 'The service is up',
        schema: ({ Type, closedObject }) => closedObject({ status: Type.Literal('ok'), message: Type.String() }),
        example: { status: 'ok', message: `${SERVICE_NAME} v${SERVICE_VERSION}` },
      },
    },
  },
};
