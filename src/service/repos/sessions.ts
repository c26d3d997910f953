import type { StateStore } from '../../state/types.js';
import { notFound } from '../envelope.js';
import { svcKeys } from '../state-keys.js';

export interface SessionRecord {
  sessionId: number;
  serialNumber: string;
  createdAt: string;
}

export interface HistoryEntry {
  role: 'user' | 'assistant';
  content: string;
}

export class SessionRepository {
  constructor(
    private readonly state: StateStore,
    private readonly ttlMs: number,
    private readonly historyEntries: number,
  ) {}

  async create(serialNumber: string): Promise<SessionRecord> {
    const sessionId = await this.state.incr(svcKeys.sequence('session'));
    const record: SessionRecord = { sessionId, serialNumber, createdAt: new Date().toISOString() };
    await this.state.set(svcKeys.session(sessionId), JSON.stringify(record), { ttlMs: this.ttlMs });
    return record;
  }

  async get(sessionId: number): Promise<SessionRecord> {
    const raw = await this.state.get(svcKeys.session(sessionId));
    if (raw === null) {
      throw notFound(
        `No chat session has the sessionID ${sessionId} (it may have expired); create one with /chat/Chatbot/GetSession.`,
      );
    }
    return JSON.parse(raw) as SessionRecord;
  }

  async history(sessionId: number): Promise<HistoryEntry[]> {
    const raw = await this.state.listRange(svcKeys.history(sessionId), 0, -1);
    return raw.map((entry) => JSON.parse(entry) as HistoryEntry);
  }

  /**
   * Appends one exchange, keeps the newest entries, and keeps the session alive: one
   * MULTI (the session's keys share its hash tag).
   */
  async record(sessionId: number, question: string, answer: string): Promise<void> {
    const entries: HistoryEntry[] = [
      { role: 'user', content: question },
      { role: 'assistant', content: answer },
    ];
    const history = svcKeys.history(sessionId);
    await this.state.atomic([
      {
        op: 'listPush',
        key: history,
        values: entries.map((entry) => JSON.stringify(entry)),
        maxLength: this.historyEntries,
      },
      { op: 'expire', key: history, ttlMs: this.ttlMs },
      { op: 'expire', key: svcKeys.session(sessionId), ttlMs: this.ttlMs },
    ]);
  }

  /** Two consecutive message ids: the question's, then the answer's. */
  async nextMessageIds(): Promise<{ questionId: number; answerId: number }> {
    const answerId = await this.state.incr(svcKeys.sequence('message'), 2);
    return { questionId: answerId - 1, answerId };
  }
}
