export { DASHBOARD_HEADER, crossSiteRefusal } from './cross-site-check.js';
export { dashboardFolder, loadDashboardAssets } from './dashboard-assets.js';
export type { DashboardAsset } from './dashboard-assets.js';
export { createDashboardRoutes } from './dashboard-routes.js';
export type { DashboardPrincipal, DashboardRoutesOptions } from './dashboard-routes.js';
export { requestToken } from './request-token.js';
export type { RequestToken } from './request-token.js';
export { SESSION_COOKIE, clearedSessionCookie, readSessionCookie, sessionCookie } from './session-cookie.js';
