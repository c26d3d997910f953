/**
 * The operator doors' side of the handoff: a thread (Slack) or topic (Telegram) per handoff where
 * operators answer, kept in step with the pause from every process (sync.ts, run by worker.ts on
 * the due lists of thread-store.ts), and what operators do there (operator-input.ts). The card and
 * the posts are composed here (card.ts, thread-posts.ts); each door renders them for its platform.
 */
import type { ConversationRef, OperatorDoor } from '../../contract.js';
import type { Gateway } from '../../gateway/index.js';
import type { Logger } from '../../logger.js';
import type { StateStore } from '../../state/index.js';
import type { OperatorAccounts } from '../operators/index.js';
import type { HandoffController, OperatorDesk } from '../pause/index.js';
import { OperatorInput } from './operator-input.js';
import { ThreadSync } from './sync.js';
import { ThreadStore } from './thread-store.js';
import { DEFAULT_THREAD_WORKER_POLICY, ThreadWorker, type ThreadWorkerPolicy } from './worker.js';

export { composeCard, type CardFacts, type CardState } from './card.js';
export { ThreadStore, type ThreadRecord } from './thread-store.js';
export { DEFAULT_THREAD_WORKER_POLICY, type ThreadWorkerPolicy } from './worker.js';

export interface ThreadsOptions {
  gateway: Gateway;
  state: StateStore;
  controller: HandoffController;
  desk: OperatorDesk;
  /** The doors of each bot (bots without any are left alone). */
  doors: ReadonlyMap<string, readonly OperatorDoor[]>;
  baseUrl: string;
  /**
   * The signed link into the inbox, when the inbox is on, valid from `from`: a card signs it from its
   * handoff's start, so the same card is the same text (and is not edited again for a new token).
   */
  inboxUrl(conversation: ConversationRef, from: number): string | undefined;
  platformName(platform: string): string;
  /** Whose operator account a person of a door is. */
  accounts: Pick<OperatorAccounts, 'ofDoorPerson'>;
  logger: Logger;
  policy?: Partial<ThreadWorkerPolicy>;
}

export interface OperatorThreads {
  /** A conversation's handoff changed (any door, any kind): its threads are brought up to date. */
  changed(conversation: ConversationRef): Promise<void>;
  stop(): Promise<void>;
}

/** Starts the doors (each hearing its operators) and the worker; a door that cannot start is logged, the others go on. */
export async function startThreads(options: ThreadsOptions): Promise<OperatorThreads> {
  const { gateway, state, controller, desk, logger } = options;
  const store = new ThreadStore(state, gateway.policy.transcriptTtlMs);
  const sync = new ThreadSync({
    gateway,
    controller,
    store,
    doors: options.doors,
    baseUrl: options.baseUrl,
    inboxUrl: options.inboxUrl,
    platformName: options.platformName,
    chatbotName: async (bot) => (await desk.chatbotNames(new Set([bot]))).get(bot) ?? bot,
  });
  const worker = new ThreadWorker({
    store,
    sync: (conversation) => sync.sync(conversation),
    // Only conversations of bots with doors are this worker's; the others' stay for listActive to drop.
    takeExpired: async () =>
      (await controller.pauses.takeExpired()).filter((conversation) => options.doors.has(conversation.bot)),
    logger,
    policy: { ...DEFAULT_THREAD_WORKER_POLICY, ...options.policy },
  });
  const started: OperatorDoor[] = [];
  for (const [bot, doors] of options.doors) {
    for (const door of doors) {
      const doorLogger = logger.child({ door: door.platform, bot });
      try {
        await door.start(
          new OperatorInput({
            bot,
            door,
            desk,
            controller,
            gateway,
            store,
            logger: doorLogger,
            platformName: options.platformName,
            accounts: options.accounts,
          }),
        );
        started.push(door);
      } catch (error) {
        doorLogger.error(
          { err: error },
          "the operators' door could not start; handoffs still go to the inbox and by e-mail",
        );
      }
    }
  }
  worker.start();
  return {
    changed: (conversation) => (options.doors.has(conversation.bot) ? worker.changed(conversation) : Promise.resolve()),
    async stop() {
      await worker.stop();
      await Promise.all(started.map((door) => door.stop().catch(() => undefined)));
    },
  };
}
