/**
 * The signed hand-back link of the e-mail: signed and checked (resume-link.ts), answered at
 * /handoff/resume (resume-route.ts) with its pages (resume-pages.ts). The token format serves the
 * inbox's sign-in link too, with a key of its own.
 */
export {
  ResumeLinks,
  purposeKey,
  resolveLinkSecret,
  signToken,
  verifyToken,
  type VerifiedToken,
} from './resume-link.js';
export { resumeRoute } from './resume-route.js';
