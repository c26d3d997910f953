/** The operator inbox at /inbox: its routes, its sessions, the e-mail's sign-in link and the live feed. */
export {
  HISTORY_PAGE_SIZE,
  inboxDisabled,
  inboxRouter,
  WAITING_PAGE_SIZE,
  type InboxRouterOptions,
  type OperatorPage,
} from './inbox-routes.js';
export { InboxLinks, INBOX_LINK_PATH, type InboxLinkClaim, type VerifiedInboxToken } from './sign-in-link.js';
export { InboxSessions, sessionDigest, type InboxSession } from './sessions.js';
export { AccountSessions } from './account-sessions.js';
export { SignInMail } from './sign-in-mail.js';
export { onSessionEnded } from './live/index.js';
export { SignInLimit } from './sign-in-limit.js';
export { untrustedProxyHint } from './proxy-hint.js';
export { startInboxFeed } from './live/index.js';
