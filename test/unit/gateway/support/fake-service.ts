import type {
  AskStreamEvent, ChatAnswer, ChatbotServiceApi, ClientAskRequest, ListingItem, ListingPage, ListingQuery, ModelInfo, UploadInput,
} from '../../../../src/upstream/api.js';
import { UpstreamError } from '../../../../src/upstream/errors.js';
import type { UpstreamOperation } from '../../../../src/upstream/paths.js';

/**
 * A stand-in for the hosted Chatbot Service (an external system, like a chat
 * platform) for the unit tests: sessions, streamed answers ("You said: …"),
 * uploads and listings, plus the faults a test needs: down, held answers, and
 * forgotten sessions. The integration tests run the real embedded service.
 */
export class FakeChatbotService implements ChatbotServiceApi {
  readonly asks: ClientAskRequest[] = [];
  readonly uploads: UploadInput[] = [];
  readonly sessions = new Set<number>();
  listings: ListingItem[] = [];
  down = false;
  /** Calls refused while down. */
  failedCalls = 0;
  private nextSession = 100;
  private held: Promise<void> | null = null;
  private releaseHeld: (() => void) | null = null;

  /** Answers wait until `release()`; an answer started before stays in progress meanwhile. */
  hold(): () => void {
    this.held = new Promise((resolve) => { this.releaseHeld = resolve; });
    return () => {
      this.releaseHeld?.();
      this.held = null;
    };
  }

  /** The service forgets every session (they expire there). */
  forgetSessions(): void {
    this.sessions.clear();
  }

  async getSession(serialNumber: string): Promise<{ sessionId: number }> {
    this.failIfDown('GetSession');
    if (!serialNumber) throw new UpstreamError({ kind: 'envelope', operation: 'GetSession', status: 200, code: 400, message: 'serialNumber is required' });
    const sessionId = this.nextSession++;
    this.sessions.add(sessionId);
    return { sessionId };
  }

  async *askStream(request: ClientAskRequest): AsyncIterable<AskStreamEvent> {
    this.failIfDown('ClientAsk');
    if (!this.sessions.has(request.sessionId)) {
      throw new UpstreamError({ kind: 'envelope', operation: 'ClientAsk', status: 404, code: 404, message: `No chat session has the sessionID ${request.sessionId}` });
    }
    this.asks.push(request);
    if (this.held) await this.held;
    const answer = this.answerTo(request);
    for (const word of answer.split(/(?<= )/)) yield { type: 'fragment', content: word };
    yield { type: 'final', questionId: this.asks.length * 2 - 1, answerId: this.asks.length * 2, answer, totalToken: 5, noAnswer: false, incomplete: false };
  }

  async ask(request: ClientAskRequest): Promise<ChatAnswer> {
    let content = '';
    for await (const event of this.askStream(request)) if (event.type === 'final') content = event.answer;
    return { messageId: this.asks.length * 2, content, totalToken: 5, noAnswer: false };
  }

  answerTo(request: ClientAskRequest): string {
    const files = request.fileIds?.length ? ` (with ${request.fileIds.length} ${request.chatAskType} file)` : '';
    return `You said: ${request.content}${files}`;
  }

  async uploadFile(file: UploadInput): Promise<{ fileId: number }> {
    this.failIfDown('GetPreUploadUrl');
    this.uploads.push(file);
    return { fileId: 500 + this.uploads.length };
  }

  async listListings(query: ListingQuery): Promise<ListingPage> {
    this.failIfDown('RealEstateList');
    const matching = this.listings.filter((item) => !query.CityName || item.City.toLowerCase() === query.CityName.toLowerCase());
    const size = query.PageSize ?? 20;
    const page = query.PageNumber ?? 1;
    return { List: matching.slice((page - 1) * size, page * size), VirtualCount: matching.length };
  }

  async edit(): Promise<void> {}
  async createListing(): Promise<string> { return 'created'; }
  async deleteListings(): Promise<{ successCount: number }> { return { successCount: 0 }; }
  async modelList(): Promise<ModelInfo[]> { return []; }
  async addChatbot(): Promise<string> { return 'serial'; }
  async removeChatbot(): Promise<void> {}

  private failIfDown(operation: UpstreamOperation): void {
    if (this.down) {
      this.failedCalls++;
      throw new UpstreamError({ kind: 'network', operation, message: `${operation} could not reach the service: ECONNREFUSED` });
    }
  }
}

export function listing(id: number, city: string, extra: Partial<ListingItem> = {}): ListingItem {
  return {
    ID: id, PropertyType: 'House', SaleType: 'For Sale', Status: 'Active', Images: '', CurrencySymbol: '$', State: 'TX', City: city,
    Address: `${id} Main St`, ZIP: '78701', Area: '1800 Square Feet', Url: `https://example.com/listing/${id}`, Tours: '', Description: '',
    Price: String(400_000 + id), Bathrooms: '2', Bedrooms: '3', YearBuilt: '2001', MLSNumber: `MLS${id}`, DaysOnMarket: '3',
    LotArea: '', BuildingArea: '1800', ParkingSpots: '2', RentPrice: '', SpaceType: '', DepositFee: '', SalePrice: '',
    UnitAreaPrice: '', ZestimatePrice: '', HOAMonth: '', LATITUDE: 0, LONGITUDE: 0, ExtensionColumn: '', ...extra,
  };
}
