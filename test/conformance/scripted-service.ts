/**
 * The Chatbot Service for the conformance suite: a scripted stand-in (an external
 * system, like the platform fakes) that answers every question at once with a
 * known text in four fragments, so the suite knows the full answer the user must
 * end up seeing, and costs no engine time. A scenario can hold the next answer
 * half-way (after its first two fragments, enough for every renderer to show
 * something) to act while it is being written.
 */
import type {
  AskStreamEvent, CallOptions, ChatAnswer, ChatbotServiceApi, ClientAskRequest, ListingItem, ListingPage, ListingQuery, ModelInfo, UploadInput,
} from '../../src/upstream/api.js';
import { listing } from '../unit/gateway/support/fake-service.js';

/** The fragments of the answer to `question` (for a file: to its caption). */
export function answerFragments(question: string): string[] {
  return [`About ${question}: `, 'here is the first part of the answer. ', 'The second part follows it. ', 'The third part ends it.'];
}

/** The whole answer, as the user must see it once it is final. */
export const fullAnswer = (question: string): string => answerFragments(question).join('').trim();

/** Fragments given before a held answer waits: over the edit renderer's first-message minimum. */
const FRAGMENTS_BEFORE_HOLD = 2;

export interface HeldAnswer {
  /** Resolves once the answer waits half-way (its first fragments handed to the gateway). */
  reached: Promise<void>;
  release(): void;
}

export class ConformanceService implements ChatbotServiceApi {
  /** The questions asked, in order (a question asked again after a takeover appears twice). */
  readonly questions: string[] = [];
  readonly uploads: UploadInput[] = [];
  /** Four listings in Austin: two pages with the suite's page size of 2. */
  readonly listings: ListingItem[] = [1, 2, 3, 4].map((id) => listing(id, 'Austin', { Address: `${id}0${id} Conformance Lane` }));
  private nextSession = 1;
  private held: { reached: () => void; released: Promise<void> } | undefined;

  /** The next answer stops after its first fragments until `release()` (or until its turn is aborted). */
  holdNextAnswer(): HeldAnswer {
    let reached!: () => void;
    let release!: () => void;
    const reachedPromise = new Promise<void>((resolve) => { reached = resolve; });
    const released = new Promise<void>((resolve) => { release = resolve; });
    this.held = { reached, released };
    return { reached: reachedPromise, release };
  }

  async getSession(): Promise<{ sessionId: number }> {
    return { sessionId: this.nextSession++ };
  }

  async *askStream(request: ClientAskRequest, options?: CallOptions): AsyncIterable<AskStreamEvent> {
    this.questions.push(request.content);
    const hold = this.held;
    this.held = undefined;
    const fragments = answerFragments(request.content);
    for (const [index, content] of fragments.entries()) {
      if (hold && index === FRAGMENTS_BEFORE_HOLD) {
        hold.reached();
        await untilReleasedOrAborted(hold.released, options?.signal);
      }
      yield { type: 'fragment', content };
    }
    yield {
      type: 'final', questionId: this.questions.length * 2 - 1, answerId: this.questions.length * 2, answer: fragments.join(''),
      totalToken: 12, noAnswer: false, incomplete: false,
    };
  }

  async ask(request: ClientAskRequest, options?: CallOptions): Promise<ChatAnswer> {
    let content = '';
    for await (const event of this.askStream(request, options)) if (event.type === 'final') content = event.answer;
    return { messageId: this.questions.length * 2, content, totalToken: 12, noAnswer: false };
  }

  async uploadFile(file: UploadInput): Promise<{ fileId: number }> {
    this.uploads.push(file);
    return { fileId: 900 + this.uploads.length };
  }

  async listListings(query: ListingQuery): Promise<ListingPage> {
    const size = query.PageSize ?? 20;
    const page = query.PageNumber ?? 1;
    return { List: this.listings.slice((page - 1) * size, page * size), VirtualCount: this.listings.length };
  }

  async edit(): Promise<void> {}
  async createListing(): Promise<string> { return 'created'; }
  async deleteListings(): Promise<{ successCount: number }> { return { successCount: 0 }; }
  async modelList(): Promise<ModelInfo[]> { return []; }
  async addChatbot(): Promise<string> { return 'serial'; }
  async removeChatbot(): Promise<void> {}
}

/** Waits for `released`, or rejects with the abort reason when the turn is cut off (a gateway stopping). */
function untilReleasedOrAborted(released: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return released;
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    void released.then(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    });
  });
}
