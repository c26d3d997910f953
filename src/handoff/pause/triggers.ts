/**
 * The four ways into a handoff, registered on the gateway: the /human command
 * (and the "Talk to a person" button), a phrase, an answer with nothing to say,
 * and repeated upstream failures (counted here, in the conversation's pause hash,
 * and forgotten by an answer); plus the pause itself, checked before any
 * command runs, so a paused conversation gets nothing from the bot; and the
 * inbox told of what the user wrote to a person, once it is in the transcript.
 */
import type { Config } from '../../config/index.js';
import { parseCommand, type Gateway, type TurnContext, type TurnRead } from '../../gateway/index.js';
import type { HandoffController } from './controller.js';
import type { InboxFeed } from './inbox-changes.js';
import type { PauseHash } from './pause-store.js';
import { findHandoffPhrase } from './phrases.js';
import { HANDOFF_ACTION_PREFIX, HANDOFF_COMMAND } from '../policy.js';

export interface TriggerConfig {
  handoff: Config['handoff'];
  bots: Config['bots'];
}

/**
 * Registers everything; returns the removal of all of it. `feed`: the inbox's live updates (none
 * when the inbox is off), told `user-message` when a turn's message reached the person's side.
 */
export function registerTriggers(
  gateway: Gateway,
  controller: HandoffController,
  config: TriggerConfig,
  feed?: Pick<InboxFeed, 'publish'>,
): () => void {
  const phrasesOf = new Map(config.bots.map((bot) => [bot.id, bot.handoffPhrases ?? config.handoff.phrases]));
  /**
   * Turns whose message is for the person (held by the pause, or the one that handed over): their
   * transcript entry is written with the queue advance, so the inbox is told on `committed`, when
   * a page that reads the transcript finds it, on any replica.
   */
  const forThePerson = new WeakSet<TurnContext>();
  const start: HandoffController['start'] = (ctx, ...rest) => {
    forThePerson.add(ctx);
    return controller.start(ctx, ...rest);
  };
  // The pause (and the count of upstream failures beside it) is read in the turn's first batch, with the core's own
  // reads: no round trip of its own.
  const pauseRead = gateway.turnReads.add(
    (ctx) => controller.pauses.readCommand(ctx.conversation),
    (fields, ctx) => controller.pauses.decodeHash(ctx.conversation, fields),
  );
  const threshold = config.handoff.failureThreshold;
  const removals = [
    () => pauseRead.remove(),
    // Before any command or button: a paused conversation answers none of them.
    gateway.pipeline.use('beforeCommands', async (ctx, next) => {
      if ((await pauseGate(ctx, controller, pauseRead)) === 'continue') await next();
      else forThePerson.add(ctx);
    }),
    gateway.commands.register({
      name: HANDOFF_COMMAND,
      description: (texts) => texts.commandDescriptions.human,
      run: (ctx) => start(ctx, { kind: 'command' }),
    }),
    gateway.commands.registerAction({
      prefix: HANDOFF_ACTION_PREFIX,
      run: (ctx) => start(ctx, { kind: 'button' }),
    }),
    gateway.pipeline.use('beforeAsk', async (ctx, next) => {
      const phrase = findHandoffPhrase(ctx.inbound.text, phrasesOf.get(ctx.bot.id) ?? config.handoff.phrases);
      if (phrase === null) return next();
      await start(ctx, { kind: 'phrase', phrase });
    }),
    // First: an answer came, whatever the listeners after this one do with it.
    gateway.events.on('afterAnswer', (_final, ctx) => forgetFailures(ctx, controller, pauseRead)),
    gateway.events.on('afterAnswer', async (final, ctx) => {
      // null = the service did not say (hosted services may omit it): not a reason to bother anyone.
      if (final.noAnswer !== true) return;
      if (config.handoff.onNoAnswer === 'handoff') {
        await start(ctx, { kind: 'no-answer' }, [{ at: Date.now(), role: 'bot', text: final.answer }]);
      } else if (config.handoff.onNoAnswer === 'offer') {
        await offer(ctx);
      }
    }),
    gateway.events.on('upstreamFailure', async (_failure, ctx) => {
      // With no threshold nothing is counted (an answer still forgets a count a configuration before left).
      if (threshold <= 0) return;
      // Written now, not with the turn's advance: whether a pause holds the hash is decided with the count.
      const failures = await controller.pauses.countFailure(ctx.conversation, pauseRead.of(ctx)?.failures);
      if (failures >= threshold) await start(ctx, { kind: 'upstream-failures', failures });
    }),
  ];
  if (feed) {
    removals.push(
      gateway.events.on('committed', async (ctx) => {
        // The feed never throws: it logs a failed publish itself.
        if (forThePerson.has(ctx)) await feed.publish({ conversation: ctx.conversation, kind: 'user-message' });
      }),
    );
  }
  return () => {
    for (const remove of removals) remove();
  };
}

/**
 * An answer ends a run of upstream failures: their count is deleted with the turn's writes (the queue advance), only
 * when the turn's read saw one (a turn started before the read was added could not tell, and deletes it anyway).
 */
function forgetFailures(ctx: TurnContext, controller: HandoffController, pauseRead: TurnRead<PauseHash>): void {
  const forget = controller.pauses.forgetFailuresCommand(ctx.conversation, pauseRead.of(ctx)?.failures);
  if (forget) ctx.later(forget);
}

/**
 * Paused: silence, except that asking for a person again gets a short "already
 * asked". Expired: the pause ends here, the user is told, and the turn goes on.
 */
async function pauseGate(
  ctx: TurnContext,
  controller: HandoffController,
  pauseRead: TurnRead<PauseHash>,
): Promise<'continue' | 'stop'> {
  const prefetched = pauseRead.of(ctx);
  const record = prefetched === undefined ? await controller.pauses.read(ctx.conversation) : prefetched.pause;
  if (!record) return 'continue';
  if (record.expiresAt <= Date.now()) {
    if (await controller.endExpired(ctx.conversation)) await ctx.reply((await ctx.texts()).handoff.botIsBack);
    return 'continue';
  }
  if (asksForAPerson(ctx)) await ctx.reply((await ctx.texts()).handoff.alreadyWithAPerson);
  await controller.noteWhilePaused(ctx, record);
  return 'stop';
}

function asksForAPerson(ctx: TurnContext): boolean {
  const { action, text } = ctx.inbound;
  if (action) return action.value === HANDOFF_ACTION_PREFIX || action.value.startsWith(`${HANDOFF_ACTION_PREFIX}:`);
  return parseCommand(text)?.name === HANDOFF_COMMAND;
}

async function offer(ctx: TurnContext): Promise<void> {
  const { handoff } = await ctx.texts();
  if (ctx.capabilities.buttons) {
    await ctx.reply(handoff.offer, {
      buttons: [{ label: handoff.offerButton, value: `${HANDOFF_ACTION_PREFIX}:offer` }],
    });
  } else {
    await ctx.reply(handoff.offerWithoutButtons);
  }
}
