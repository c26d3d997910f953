/**
 * /stop: the answer being written ends where it is. The stop itself happens at once, outside the queue
 * (intake/intake.ts publishes it, turn/turn-runner.ts stops the turn running in whichever process); the
 * /stop message is queued too, so that it is recorded, and answered when nothing was being written:
 * an answer it stopped marked that (`gatewayKeys.stopped`, with that answer's writes) and says so itself.
 */
import type { Command } from './registry.js';
import { gatewayKeys } from '../state-keys.js';

export const STOP_COMMAND = 'stop';

export const stopCommand: Command = {
  name: STOP_COMMAND,
  description: (texts) => texts.commandDescriptions.stop,
  async run(ctx) {
    const key = gatewayKeys.stopped(ctx.conversation, ctx.inbound.platformMessageId);
    const stoppedAnAnswer = (await ctx.services.state.get(key)) !== null;
    if (stoppedAnAnswer) {
      ctx.later({ op: 'del', key });
      return;
    }
    await ctx.reply((await ctx.texts()).nothingToStop);
  },
};
