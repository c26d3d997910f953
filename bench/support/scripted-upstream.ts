/**
 * A stand-in for the hosted Chatbot Service in gateway benchmarks: it answers
 * ClientAsk from a script (fragments, pauses, final) with no network and no
 * engine, so the numbers measure the gateway and not the service. It records
 * when it handed out each answer's first fragment, the reference point of the
 * "added latency" measure. Only the operations the gateway uses to answer a
 * text message are implemented.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { AskStreamEvent, CallOptions, ChatbotServiceApi, ClientAskRequest } from '../../src/upstream/api.js';

export interface AnswerScript {
  /** Fragments in order; the first is yielded as soon as ClientAsk is opened. */
  fragments: string[];
  /** Pause before each fragment after the first (ms). */
  gapMs: number;
  /** Pause before the first fragment (ms): the model's time to its first token. Default 0. */
  firstDelayMs?: number;
}

/** The tag a benchmark puts in a question (`#<key>`), so the upstream knows whose answer it is. */
export const tagOf = (content: string): string => /#(\S+)/.exec(content)?.[1] ?? content;

const notUsed = (operation: string) => (): never => {
  throw new Error(`ScriptedUpstream: ${operation} is not part of the gateway benchmarks`);
};

export class ScriptedUpstream implements ChatbotServiceApi {
  /** Tag → when the first fragment was handed to the gateway (clock ms). */
  readonly firstFragmentAt = new Map<string, number>();
  /** Tag → when the final (the whole answer) was handed to the gateway (clock ms). */
  readonly finalAt = new Map<string, number>();
  asked = 0;
  private nextSession = 1;

  constructor(
    private script: AnswerScript,
    private readonly clock: () => number,
  ) {}

  setScript(script: AnswerScript): void {
    this.script = script;
  }

  /** The answer the user must end up seeing (the final's `answer`). */
  get finalText(): string {
    return this.script.fragments.join('');
  }

  async getSession(): Promise<{ sessionId: number }> {
    return { sessionId: this.nextSession++ };
  }

  async *askStream(request: ClientAskRequest, options?: CallOptions): AsyncIterable<AskStreamEvent> {
    const { fragments, gapMs } = this.script;
    this.asked++;
    const waitFor = (ms: number) => sleep(ms, undefined, options?.signal ? { signal: options.signal } : {});
    if (this.script.firstDelayMs) await waitFor(this.script.firstDelayMs);
    for (const [index, content] of fragments.entries()) {
      if (index > 0 && gapMs > 0) await sleep(gapMs, undefined, options?.signal ? { signal: options.signal } : {});
      if (index === 0) this.firstFragmentAt.set(tagOf(request.content), this.clock());
      yield { type: 'fragment', content };
    }
    this.finalAt.set(tagOf(request.content), this.clock());
    yield {
      type: 'final',
      questionId: this.asked,
      answerId: this.asked,
      answer: fragments.join(''),
      totalToken: 42,
      noAnswer: false,
      incomplete: false,
    };
  }

  ask = notUsed('ClientAsk (not streamed)');
  edit = notUsed('Edit');
  createListing = notUsed('RealEstateCreate');
  listListings = notUsed('RealEstateList');
  deleteListings = notUsed('RealEstateDelete');
  modelList = notUsed('ModelList');
  addChatbot = notUsed('AddChatbot');
  removeChatbot = notUsed('RemoveChatbot');
  uploadFile = notUsed('upload');
}
