/**
 * An operators' platform held in memory (a Slack channel or a Telegram forum, reduced to what a
 * door does): threads with a card and posts, opened, reopened, closed, deleted by hand; people
 * who write in a thread or press a card's button, delivered to one connected door (as a platform
 * delivers an event to one process) and, when asked, again (a redelivery); outages on demand.
 * Doors on it are the contract's OperatorDoor, one per gateway "process".
 *
 * For the handoff's tests of what happens in threads whatever the operators' platform; the
 * Slack and Telegram doors are tested against their own fakes. Imports only the contract.
 */
import {
  PlatformError,
  ThreadGoneError,
  type InboundAttachment,
  type OperatorDoor,
  type OperatorIdentity,
  type OperatorSink,
  type ThreadCard,
  type ThreadPost,
  type ThreadRef,
} from '../../src/contract.js';

export interface MemoryThread {
  id: string;
  title: string;
  card: ThreadCard;
  /** The card's versions, oldest first (each update appends). */
  cards: ThreadCard[];
  posts: ThreadPost[];
  open: boolean;
  deleted: boolean;
  /** Times it was opened for a handoff (1, then 2 when reopened). */
  opened: number;
}

export class MemoryOperatorsPlatform {
  readonly threads = new Map<string, MemoryThread>();
  private readonly sinks: OperatorSink[] = [];
  private nextId = 1;
  private nextMessage = 1;
  private delivered = 0;
  /** Every call refused as unreachable while true. */
  down = false;

  constructor(
    readonly options: { platform?: string; reopens?: boolean; relays?: boolean; maxFileBytes?: number } = {},
  ) {}

  /** A door of one gateway process on this platform. */
  door(): OperatorDoor {
    return new MemoryDoor(this);
  }

  connect(sink: OperatorSink): () => void {
    this.sinks.push(sink);
    return () => this.sinks.splice(this.sinks.indexOf(sink), 1);
  }

  /** The thread whose title names `who` (opened most recently). */
  threadOf(who: string): MemoryThread | undefined {
    return [...this.threads.values()].reverse().find((thread) => thread.title.includes(who));
  }

  /** A person writes in a thread; resolves once a door handled it (the returned id redelivers it). */
  async write(
    thread: string,
    operator: OperatorIdentity,
    text: string,
    files: InboundAttachment[] = [],
    messageId = `msg-${this.nextMessage++}`,
  ): Promise<string> {
    await this.nextSink().message({ thread, messageId, operator, text, files, sentAt: Date.now() });
    return messageId;
  }

  async press(
    thread: string,
    operator: OperatorIdentity,
    kind: 'claim' | 'hand-back',
    actionId = `act-${this.nextMessage++}`,
  ) {
    await this.nextSink().action({ thread, kind, operator, actionId });
    return actionId;
  }

  /** Deleted by a person: later calls on it fail as the platform says (ThreadGoneError). */
  deleteThread(id: string): void {
    const thread = this.threads.get(id);
    if (thread) thread.deleted = true;
  }

  /** Round robin over the connected doors: two processes share the deliveries. */
  private nextSink(): OperatorSink {
    if (this.sinks.length === 0) throw new Error('no door is connected to the operators’ platform');
    return this.sinks[this.delivered++ % this.sinks.length]!;
  }

  check(method: string): void {
    if (this.down)
      throw new PlatformError(`${method}: the operators' platform is unreachable`, 'unreachable', undefined, {
        method,
      });
  }

  live(id: string, method: string): MemoryThread {
    const thread = this.threads.get(id);
    if (!thread || thread.deleted) throw new ThreadGoneError(`${method}: thread ${id} not found`, method);
    return thread;
  }

  newThread(card: ThreadCard): MemoryThread {
    const thread: MemoryThread = {
      id: `t${this.nextId++}`,
      title: card.title,
      card,
      cards: [card],
      posts: [],
      open: true,
      deleted: false,
      opened: 1,
    };
    this.threads.set(thread.id, thread);
    return thread;
  }
}

class MemoryDoor implements OperatorDoor {
  readonly platform: string;
  readonly relays: boolean;
  readonly maxFileBytes: number;
  private disconnect: (() => void) | undefined;

  constructor(private readonly world: MemoryOperatorsPlatform) {
    this.platform = world.options.platform ?? 'memory-desk';
    this.relays = world.options.relays ?? true;
    this.maxFileBytes = world.options.maxFileBytes ?? 1024 * 1024;
  }

  async start(sink: OperatorSink): Promise<void> {
    this.disconnect = this.world.connect(sink);
  }

  async stop(): Promise<void> {
    this.disconnect?.();
  }

  async open(card: ThreadCard, previous?: ThreadRef): Promise<ThreadRef> {
    this.world.check('open');
    if (previous && this.world.options.reopens) {
      const thread = this.world.live(previous.id, 'reopen');
      Object.assign(thread, { open: true, title: card.title, card, opened: thread.opened + 1 });
      thread.cards.push(card);
      return { id: thread.id, cardMessageId: `${thread.id}:card:${thread.opened}`, url: `memory://${thread.id}` };
    }
    const thread = this.world.newThread(card);
    return { id: thread.id, cardMessageId: `${thread.id}:card:1`, url: `memory://${thread.id}` };
  }

  async updateCard(ref: ThreadRef, card: ThreadCard): Promise<void> {
    this.world.check('updateCard');
    const thread = this.world.live(ref.id, 'updateCard');
    thread.card = card;
    thread.cards.push(card);
  }

  async post(ref: ThreadRef, post: ThreadPost): Promise<void> {
    this.world.check('post');
    this.world.live(ref.id, 'post').posts.push(post);
  }

  async close(ref: ThreadRef): Promise<void> {
    this.world.check('close');
    this.world.live(ref.id, 'close').open = false;
  }
}
