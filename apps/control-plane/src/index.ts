export { createAccessTokens } from './access-tokens.js';
export type { AccessTokenRecord, AccessTokens, Principal } from './access-tokens.js';
export { createControlPlaneApp } from './create-control-plane-app.js';
export type { ControlPlaneAppEnv, ControlPlaneAppOptions } from './create-control-plane-app.js';
export { controlPlaneOpenApi } from './openapi-document.js';
export { createRateLimiter } from './rate-limiter.js';
export type { RateLimiter } from './rate-limiter.js';
export { serveControlPlane } from './serve-control-plane.js';
export type { ControlPlaneServer, ServeControlPlaneOptions } from './serve-control-plane.js';
