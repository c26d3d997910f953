/** The operators' admin API: its routes under /admin, and the HTTP client the CLI calls them with. */
export { adminRoutes } from './admin-routes.js';
export { HandoffAdminClient, type DigestPreview, type DigestSendAnswer } from './admin-client.js';
