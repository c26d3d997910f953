/**
 * doctor's upstream check: what the gateway does for every message, once. GetSession for
 * the first bot's chatbot, then one streamed ClientAsk, so a state where `ask` fails is
 * never reported as fine.
 */
import type { Config } from '../config/index.js';
import { UpstreamError } from '../upstream/index.js';
import { CliError, EMBEDDED_NEEDS, explainUpstreamError, openCliContext } from './context.js';

/** The question doctor asks (one message on the chatbot's monthly count). */
export const DOCTOR_QUESTION = 'Hello';

export type UpstreamCheckResult = { status: 'ok' | 'warn'; detail: string };

/** Resolves with what was found; rejects with what to fix. */
export async function checkUpstream(config: Config): Promise<UpstreamCheckResult> {
  const embedded = !config.upstream.baseUrl;
  let ctx;
  try {
    ctx = await openCliContext();
  } catch (error) {
    // On the default set-up (no Redis, no SERVICE_* keys) nothing outside the gateway can call its service.
    if (embedded && error instanceof CliError)
      return { status: 'warn', detail: `embedded Chatbot Service: not checked. ${error.message}` };
    throw error;
  }
  try {
    const serialNumber = ctx.serialNumber();
    const { sessionId } = await ctx.client.getSession(serialNumber);
    let fragments = 0;
    let answer = '';
    for await (const event of ctx.client.askStream({ sessionId, content: DOCTOR_QUESTION })) {
      if (event.type === 'fragment') fragments++;
      else answer = event.answer;
    }
    if (!answer.trim()) throw new Error(`ClientAsk answered "${DOCTOR_QUESTION}" with an empty answer.`);
    const where = embedded
      ? `embedded Chatbot Service of the gateway at ${ctx.upstream.baseUrl}`
      : ctx.upstream.baseUrl;
    return {
      status: 'ok',
      detail:
        `${where}: GetSession and a streamed ClientAsk work for ${serialNumber || 'the demo chatbot'} ` +
        `(${fragments} fragment(s), ${answer.length} characters; one test question asked)`,
    };
  } catch (error) {
    // Not running is the normal state before `chatbridge start`: said, not failed.
    if (embedded && error instanceof UpstreamError && error.kind === 'network') {
      return {
        status: 'warn',
        detail:
          `embedded Chatbot Service: no gateway is running at ${ctx.upstream.baseUrl}, ` +
          `so GetSession and ClientAsk were not tried (they run inside \`chatbridge start\`). ${EMBEDDED_NEEDS}`,
      };
    }
    const explained = explainUpstreamError(error, ctx.upstream);
    throw explained instanceof UpstreamError && explained.hint
      ? new Error(`${explained.message} (${explained.hint})`, { cause: error })
      : explained;
  } finally {
    await ctx.close();
  }
}
