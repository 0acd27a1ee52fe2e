import type { Route } from '../types';

export const SERVICE_NAME = 'Kiosk Rewards API';
export const SERVICE_VERSION = '1.0';

/** GET / */
export const healthRoute: Route = {
  method: 'GET',
  path: '/',
  handler: async () => ({ body: { status: 'ok', message: `${SERVICE_NAME} v${SERVICE_VERSION}` } }),
};
