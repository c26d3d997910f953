import type { Step } from './pipeline.js';
import { isServiceUnavailable } from './upstream-wait.js';

/** The session step: the conversation's service session, made with GetSession on first contact. */
export function sessionStep(): Step {
  return async (ctx, next) => {
    const { sessions } = ctx.services;
    try {
      ctx.sessionId = await sessions.ensure(ctx.conversation, ctx.bot.serialNumber, ctx.prefetched.session, {
        signal: ctx.signal,
        // A new session id is written with the queue advance: one round trip fewer on first contact.
        commit: (write) => ctx.later(write),
      });
    } catch (error) {
      // The service is unreachable: the ask step waits for it (upstream-wait.ts) and gets the session then.
      if (!isServiceUnavailable(error)) throw error;
    }
    await next();
  };
}
