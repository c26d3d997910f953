/** The operators' admin API: its routes under /admin (operator accounts too), and the HTTP client the CLI calls them with. */
export { adminRoutes } from './admin-routes.js';
export {
  AUDIT_DEFAULT_LIMIT,
  operatorRoutes,
  type OperatorChange,
  type OperatorSessions,
  type OperatorView,
} from './operator-routes.js';
export { HandoffAdminClient, type DigestPreview, type DigestSendAnswer } from './admin-client.js';
