/** Operator accounts: who may answer users, with what role and which chatbots, and the audit log of it all. */
export {
  decodeAccount,
  normalEmail,
  OPERATOR_ROLES,
  visibleBots,
  type OperatorAccount,
  type OperatorInput,
  type OperatorRole,
} from './account.js';
export { OperatorAccounts, type DoorPerson } from './accounts.js';
export { AUDIT_MAX_ENTRIES, AuditLog, type AuditAction, type AuditEntry } from './audit-log.js';
export {
  OperatorRoster,
  type AccountSessionInfo,
  type AccountSessionsPort,
  type Actor,
  type RosterOutcome,
} from './roster.js';
