/**
 * What the scripted Chatbot Service knows and what a test sees of it: the sessions it
 * opened, the questions and uploads it received, its listings, the script of its
 * answers, and the faults a test sets (down, held answers, forgotten sessions). No HTTP
 * here: routes.ts serves this state, index.ts puts it on a port.
 */
import type { ChatAskType, ListingItem } from '../../src/upstream/api.js';

/** A ClientAsk as it arrived on the wire. */
export interface RecordedAsk {
  sessionId: number;
  content: string;
  /** As sent: null means Text. */
  chatAskType: ChatAskType | null;
  fileIds: number[] | null;
  stream: boolean;
}

/** A file whose bytes were PUT to its PreUploadUrl. */
export interface RecordedUpload {
  fileId: number;
  /** The name given to GetPreUploadUrl. */
  fileName: string;
  /** The Content-Type of the PUT. */
  contentType: string;
  bytes: Uint8Array;
}

/** A failure in the service's terms: the envelope's Code and Message (the HTTP status is the Code). */
export interface ServiceFailure {
  code: number;
  message: string;
}

/** How the service answers one ClientAsk. */
export type ScriptedReply =
  | {
      /** The answer's fragments in order; joined, they are the final object's Answer. */
      fragments: string[];
      /** After the fragments, this envelope-shaped error object instead of the final one: the service breaking off mid-answer. */
      breakOff?: ServiceFailure;
    }
  | {
      /** The question is refused before anything is streamed: an enveloped error with this Code as its HTTP status. */
      refusal: ServiceFailure;
    };

/** `askNumber` counts every ClientAsk received, from 1. */
export type AnswerScript = (ask: RecordedAsk, askNumber: number) => ScriptedReply;

export interface HeldAnswer {
  /** Resolves once the answer waits half-way (its first fragments written to the gateway). */
  reached: Promise<void>;
  release(): void;
}

/** The pause of one answer, as the route writing it sees it. */
export interface PendingPause {
  afterFragments: number;
  reached(): void;
  released: Promise<void>;
}

export interface ScriptedServiceOptions {
  answer: AnswerScript;
  listings?: ListingItem[];
  /** The keys the service expects in `Authorization` and `chatrobot-sessionkey`. */
  secretKey?: string;
  sessionKey?: string;
}

export class ScriptedServiceWorld {
  readonly secretKey: string;
  readonly sessionKey: string;
  answer: AnswerScript;
  /** What RealEstateList pages through, in this order. */
  listings: ListingItem[];
  readonly asks: RecordedAsk[] = [];
  readonly uploads: RecordedUpload[] = [];
  /** While true, every connection and request is reset as it arrives (index.ts, routes.ts): the service is unreachable. */
  down = false;
  /** Calls refused while down. */
  failedCalls = 0;
  /** ClientAsk responses open now (from the request's arrival to the answer's end or the caller leaving). */
  answersInProgress = 0;
  mostAnswersAtOnce = 0;
  private readonly sessions = new Set<number>();
  private nextSessionId = 1;
  /** fileId → the name GetPreUploadUrl reserved it under. */
  private readonly reservedFiles = new Map<number, string>();
  private nextFileId = 1;
  private gate: Promise<void> | null = null;
  private nextPause: PendingPause | null = null;

  constructor(options: ScriptedServiceOptions) {
    this.answer = options.answer;
    this.listings = options.listings ?? [];
    this.secretKey = options.secretKey ?? 'scripted-service-secret';
    this.sessionKey = options.sessionKey ?? 'scripted-service-session-key';
  }

  /** The questions asked, in order (one asked again, after a takeover, appears twice). */
  get questions(): string[] {
    return this.asks.map((ask) => ask.content);
  }

  /** Answers asked from now on wait, before their first byte, until the returned release is called. */
  hold(): () => void {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    this.gate = gate;
    return () => {
      open();
      if (this.gate === gate) this.gate = null;
    };
  }

  /** The next answer stops after its first `afterFragments` fragments until `release()`, or until the caller leaves. */
  holdNextAnswer(afterFragments = 2): HeldAnswer {
    let reached!: () => void;
    let release!: () => void;
    const reachedPromise = new Promise<void>((resolve) => {
      reached = resolve;
    });
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    this.nextPause = { afterFragments, reached, released };
    return { reached: reachedPromise, release };
  }

  /** The service forgets every session (they expire there): a ClientAsk naming one is a 404. */
  forgetSessions(): void {
    this.sessions.clear();
  }

  openSession(): number {
    const sessionId = this.nextSessionId++;
    this.sessions.add(sessionId);
    return sessionId;
  }

  knowsSession(sessionId: number): boolean {
    return this.sessions.has(sessionId);
  }

  reserveFile(fileName: string): number {
    const fileId = this.nextFileId++;
    this.reservedFiles.set(fileId, fileName);
    return fileId;
  }

  reservedFileName(fileId: number): string | undefined {
    return this.reservedFiles.get(fileId);
  }

  isUploaded(fileId: number): boolean {
    return this.uploads.some((upload) => upload.fileId === fileId);
  }

  /** Records a question; returns its ask number. */
  record(ask: RecordedAsk): number {
    return this.asks.push(ask);
  }

  /** Resolves when answers are not held (at once, unless `hold()` is in force). */
  untilAnswersFlow(): Promise<void> {
    return this.gate ?? Promise.resolve();
  }

  /** The pause `holdNextAnswer` set for the next answer, handed out once. */
  takeNextPause(): PendingPause | null {
    const pause = this.nextPause;
    this.nextPause = null;
    return pause;
  }

  answerOpened(): void {
    this.answersInProgress++;
    this.mostAnswersAtOnce = Math.max(this.mostAnswersAtOnce, this.answersInProgress);
  }

  answerClosed(): void {
    this.answersInProgress--;
  }
}
