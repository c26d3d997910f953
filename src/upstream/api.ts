/**
 * The typed surface of the Chatbot Service API as the rest of chatbridge sees it
 * (docs/chatbot-service-api.md: the published operations and their hosted neighbours).
 * `ChatbotServiceClient` implements it over HTTP; the gateway core depends on this
 * interface only.
 */

export type ChatAskType = 'Text' | 'Audio' | 'Image' | 'Video';

export interface CallOptions {
  signal?: AbortSignal;
  /** Overrides the client's default timeout for this call (ms). */
  timeoutMs?: number;
}

export interface ClientAskRequest {
  sessionId: number;
  content: string;
  chatAskType?: ChatAskType | null;
  fileIds?: number[] | null;
}

/** Non-streamed answer (`Data` of ClientAsk with stream false). */
export interface ChatAnswer {
  messageId: number;
  content: string;
  totalToken: number;
  noAnswer: boolean;
}

/**
 * The final object of a streamed answer. `answer` is authoritative: it is what the
 * user must end up seeing. When the stream ended without a final object,
 * `incomplete` is true and `answer` holds the fragments joined.
 */
export interface AskFinal {
  type: 'final';
  questionId: number | null;
  answerId: number | null;
  answer: string;
  totalToken: number | null;
  /** Not in the spec's stream table; the embedded service sends it, hosted ones may not. */
  noAnswer: boolean | null;
  incomplete: boolean;
}

export type AskStreamEvent = { type: 'fragment'; content: string } | AskFinal;

export type SaleType = 'for_sale' | 'for_rent';
export type ListingStatus = 'Active' | 'PreOnMarket' | 'Sold';
export type AreaUnit = 'Square Feet' | 'Square Meters';
export type DeleteKeyType = 'NewOaks' | 'MLSNumber' | 'URL';

/** Input of RealEstateCreate, field names exactly as on the wire. */
export interface ListingInput {
  SerialNumber: string;
  SaleType: SaleType;
  Status: ListingStatus;
  CurrencySymbol: string;
  PropertyType: string;
  Bedrooms: number;
  Bathrooms: number;
  Url: string;
  MLSNumber: string;
  YearBuilt: number;
  DaysOnMarket: number;
  LotArea: number;
  BuildingArea: number;
  AreaUnit: AreaUnit;
  ParkingSpots: number;
  Images?: string[];
  Tours?: 'OpenHouse' | '3D';
  Description?: string;
  ExtensionColumn?: { Key: string; value: string }[];
  Location?: string;
  Address?: string;
  City?: string;
  State?: string;
  ZIP?: string;
  Latitude?: number;
  Longitude?: number;
  SalePrice?: number;
  UnitAreaPrice?: number;
  HOAMonth?: number;
  ZestimatePrice?: number;
  RentPrice?: number;
  SpaceType?: 'Entire place' | 'Room';
  DepositFee?: number;
}

/** An element of RealEstateList `Data.List`: numbers as strings, absent values as "". */
export interface ListingItem {
  ID: number;
  PropertyType: string;
  SaleType: string;
  Status: string;
  Images: string;
  CurrencySymbol: string;
  State: string;
  City: string;
  Address: string;
  ZIP: string;
  Area: string;
  Url: string;
  Tours: string;
  Description: string;
  Price: string;
  Bathrooms: string;
  Bedrooms: string;
  YearBuilt: string;
  MLSNumber: string;
  DaysOnMarket: string;
  LotArea: string;
  BuildingArea: string;
  ParkingSpots: string;
  RentPrice: string;
  SpaceType: string;
  DepositFee: string;
  SalePrice: string;
  UnitAreaPrice: string;
  ZestimatePrice: string;
  HOAMonth: string;
  LATITUDE: number;
  LONGITUDE: number;
  ExtensionColumn: string;
}

export interface ListingQuery {
  SerialNumber: string;
  CityName?: string;
  SaleType?: SaleType;
  MLSNumber?: string;
  PageNumber?: number;
  PageSize?: number;
}

export interface ListingPage {
  List: ListingItem[];
  VirtualCount: number;
}

/** Fields accepted by Edit; only serialNumber is required. */
export interface ChatbotSettingsEdit {
  serialNumber: string;
  Name?: string;
  Model?: string;
  SystemMessage?: string;
  Temperature?: number;
  TimeZone?: string;
  AnswerSuffix?: string;
  ChatProfilePicture?: string;
  ChatIcon?: string;
  ChatBubbleAlign?: number;
  ChatBubbleColor?: string;
  ChatbotPopupOnce?: boolean;
  ChatbotPrivacyPolicyDescription?: string;
  ChatbotPrivacyPolicyName?: string;
  ChatbotPrivacyPolicyUrl?: string;
  EnablePushToTalk?: boolean;
  EnableUploadImage?: boolean;
  FacebookUrl?: string;
  InstagramUrl?: string;
  RemoveChatLogOnBrowserClose?: boolean;
  SuggestedMessage?: string;
  TalkToHumanEmail?: string;
  TalkToHumanResponseMessage?: string;
  UserInputPlaceholder?: string;
  UserMessageColor?: string;
  WelcomeMessage?: string;
  WhatsappUrl?: string;
  VerifyDomain?: boolean;
  Domains?: string;
  RateLimitCount?: number;
  RateLimitMessage?: string;
  RateLimitTime?: number;
  CustomDomain?: string;
  EmailForDailyChatLogs?: string;
  EmailForDailyLeads?: string;
  AIResponseLanguage?: string;
  MessageLimit?: number;
}

export type ChatbotSettings = Omit<ChatbotSettingsEdit, 'serialNumber'>;

export interface ModelInfo {
  Key: string;
  Value: string;
  Status: boolean;
}

export interface UploadInput {
  bytes: Uint8Array;
  fileName: string;
  /** Sent as Content-Type of the PUT; the service sniffs the bytes anyway. */
  contentType?: string;
}

export interface ChatbotServiceApi {
  getSession(serialNumber: string, options?: CallOptions): Promise<{ sessionId: number }>;
  ask(request: ClientAskRequest, options?: CallOptions): Promise<ChatAnswer>;
  /** Fragments in order, then exactly one final event. */
  askStream(request: ClientAskRequest, options?: CallOptions): AsyncIterable<AskStreamEvent>;
  edit(settings: ChatbotSettingsEdit, options?: CallOptions): Promise<void>;
  createListing(listing: ListingInput, options?: CallOptions): Promise<string>;
  listListings(query: ListingQuery, options?: CallOptions): Promise<ListingPage>;
  deleteListings(
    request: { SerialNumber: string; Keys: string[]; KeyType: DeleteKeyType },
    options?: CallOptions,
  ): Promise<{ successCount: number }>;
  modelList(options?: CallOptions): Promise<ModelInfo[]>;
  addChatbot(request: { timeZone?: string; type?: number }, options?: CallOptions): Promise<string>;
  removeChatbot(serialNumber: string, options?: CallOptions): Promise<void>;
  /** GetPreUploadUrl → PUT → confirm (when a confirm path is configured); returns the id for fileIds. */
  uploadFile(file: UploadInput, options?: CallOptions): Promise<{ fileId: number }>;
}
