// shared/ exports webhook-signature helpers built on node:crypto; the dashboard never signs or
// verifies webhooks, so in the browser those names resolve here and fail loudly if ever called.
function unavailable(): never {
  throw new Error('node:crypto is not available in the dashboard');
}
export const createHmac = unavailable;
export const timingSafeEqual = unavailable;
