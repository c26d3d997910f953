import { randomUUID } from 'node:crypto';
import type { StateStore } from '../../state/types.js';
import { svcKeys } from '../state-keys.js';
import type { Listing, ListingInput } from '../validation/listing.js';

export interface ListingFilter {
  city?: string;
  saleType?: 'for_sale' | 'for_rent';
  mlsNumber?: string;
}

interface CachedListings {
  version: string;
  /** In creation order (ascending ID). */
  listings: Listing[];
  /** Lower-cased City and MLSNumber per listing, so filtering 10,000 listings allocates nothing. */
  cityKeys: string[];
  mlsKeys: string[];
}

const key = (value: string | undefined): string => (value ?? '').trim().toLowerCase();

/**
 * A chatbot's listings live in one hash (id → JSON). Every write sets a fresh
 * version token, and each process keeps the decoded listings until the token
 * changes, so a list request over 10,000 listings costs one GET, not a 10,000
 * field read and parse.
 */
export class ListingRepository {
  private readonly cache = new Map<string, CachedListings>();
  /** One read per chatbot and version, however many requests miss the cache at once. */
  private readonly loading = new Map<string, Promise<CachedListings>>();

  constructor(private readonly state: StateStore) {}

  async create(input: ListingInput): Promise<Listing> {
    const { SerialNumber: serialNumber, ...fields } = input;
    const id = await this.state.incr(svcKeys.sequence('listing'));
    const listing: Listing = { ID: id, ...fields };
    await this.state.atomic([
      { op: 'hashSet', key: svcKeys.listings(serialNumber), fields: { [String(id)]: JSON.stringify(listing) } },
      { op: 'set', key: svcKeys.listingsVersion(serialNumber), value: randomUUID() },
    ]);
    return listing;
  }

  async all(serialNumber: string): Promise<Listing[]> {
    return (await this.load(serialNumber)).listings;
  }

  async find(serialNumber: string, filter: ListingFilter): Promise<Listing[]> {
    const { listings, cityKeys, mlsKeys } = await this.load(serialNumber);
    const city = key(filter.city);
    const mls = key(filter.mlsNumber);
    const found: Listing[] = [];
    for (let i = 0; i < listings.length; i++) {
      const listing = listings[i]!;
      if (city !== '' && cityKeys[i] !== city) continue;
      if (mls !== '' && mlsKeys[i] !== mls) continue;
      if (filter.saleType !== undefined && listing.SaleType !== filter.saleType) continue;
      found.push(listing);
    }
    return found;
  }

  private async load(serialNumber: string): Promise<CachedListings> {
    const version = await this.state.get(svcKeys.listingsVersion(serialNumber));
    if (version === null) {
      this.cache.delete(serialNumber);
      return { version: '', listings: [], cityKeys: [], mlsKeys: [] };
    }
    const cached = this.cache.get(serialNumber);
    if (cached?.version === version) return cached;
    const loadKey = `${serialNumber}\n${version}`;
    let loading = this.loading.get(loadKey);
    if (!loading) {
      loading = this.read(serialNumber, version).finally(() => this.loading.delete(loadKey));
      this.loading.set(loadKey, loading);
    }
    return loading;
  }

  private async read(serialNumber: string, version: string): Promise<CachedListings> {
    // Read after the version: a write racing this read only makes the cache newer than its token.
    const raw = await this.state.hashGetAll(svcKeys.listings(serialNumber));
    const listings = Object.values(raw)
      .map((json) => JSON.parse(json) as Listing)
      .sort((a, b) => a.ID - b.ID);
    const loaded = {
      version,
      listings,
      cityKeys: listings.map((l) => key(l.City)),
      mlsKeys: listings.map((l) => key(l.MLSNumber)),
    };
    this.cache.set(serialNumber, loaded);
    return loaded;
  }

  /** Deletes by our id ("NewOaks"), MLS number or URL; returns how many listings went. */
  async delete(
    serialNumber: string,
    keys: readonly string[],
    keyType: 'NewOaks' | 'MLSNumber' | 'URL',
  ): Promise<number> {
    const wanted = new Set(keys.map((key) => (keyType === 'MLSNumber' ? key.trim().toLowerCase() : key.trim())));
    const matches = (await this.all(serialNumber)).filter((listing) => {
      if (keyType === 'NewOaks') return wanted.has(String(listing.ID));
      if (keyType === 'MLSNumber') return wanted.has(listing.MLSNumber.trim().toLowerCase());
      return wanted.has(listing.Url.trim());
    });
    if (matches.length === 0) return 0;
    const results = await this.state.atomic([
      ...matches.map((listing) => ({
        op: 'hashDel' as const,
        key: svcKeys.listings(serialNumber),
        field: String(listing.ID),
      })),
      { op: 'set', key: svcKeys.listingsVersion(serialNumber), value: randomUUID() },
    ]);
    // Count what Redis actually removed, so two concurrent deletes never both claim a listing.
    return results.slice(0, matches.length).reduce<number>((sum, removed) => sum + Number(removed), 0);
  }
}
