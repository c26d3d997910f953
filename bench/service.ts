/**
 * The embedded Chatbot Service on Redis (private key prefix, removed afterwards):
 * ClientAsk with the builtin engine (not streamed), and RealEstateList over a
 * chatbot with 10,000 listings. Run alone with `npx tsx bench/service.ts` (prints JSON).
 */
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { startService } from '../src/service/index.js';
import { ListingRepository } from '../src/service/repos/listings.js';
import { RedisStateStore } from '../src/state/index.js';
import type { BenchResult } from './support/result.js';

const SECRET = 'bench-secret';
const SESSION_KEY = 'bench-session';
const DURATION_S = 8;
// Enough to keep the server busy without measuring mostly queueing time in p99.
const CONNECTIONS = 10;
const LISTINGS = 10_000;
const CITIES = ['Austin', 'Denver', 'Portland', 'San Antonio', 'Boise', 'Tucson', 'Raleigh', 'Omaha'];

async function post<T>(url: string, body: unknown, headers: Record<string, string>): Promise<T> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const envelope = (await response.json()) as { Data: T; Success: boolean; Message: string };
  if (!envelope.Success) throw new Error(`${url}: ${envelope.Message}`);
  return envelope.Data;
}

function listing(serialNumber: string, i: number) {
  const forSale = i % 3 !== 0;
  return {
    SerialNumber: serialNumber,
    SaleType: forSale ? ('for_sale' as const) : ('for_rent' as const),
    Status: 'Active' as const,
    CurrencySymbol: '$',
    PropertyType: i % 2 ? 'Condo' : 'Single Family Residential',
    Bedrooms: 1 + (i % 5),
    Bathrooms: 1 + (i % 3) / 2,
    Url: `https://homes.example/${i}`,
    MLSNumber: `BM-${i}`,
    YearBuilt: 1950 + (i % 70),
    DaysOnMarket: i % 90,
    LotArea: 1000 + i,
    BuildingArea: 600 + (i % 3000),
    AreaUnit: 'Square Feet' as const,
    ParkingSpots: i % 3,
    City: CITIES[i % CITIES.length]!,
    Address: `${i} Main St`,
    State: 'TX',
    ZIP: '78704',
    Images: [`https://homes.example/img/${i}.jpg`],
    ExtensionColumn: [{ Key: 'Heating', value: 'Gas' }],
    Latitude: 30,
    Longitude: -97,
    ...(forSale ? { SalePrice: 200_000 + i * 37 } : { RentPrice: 900 + (i % 2000) }),
  };
}

async function measure(
  name: string,
  url: string,
  body: unknown,
  headers: Record<string, string>,
): Promise<BenchResult[]> {
  const result = await autocannon({
    url,
    method: 'POST',
    connections: CONNECTIONS,
    duration: DURATION_S,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const failures = result.errors + result.timeouts + result.non2xx;
  const notes = `${CONNECTIONS} connections, ${DURATION_S} s, ${result.requests.total} requests, ${failures} failed`;
  return [
    { name: `${name} throughput`, value: result.requests.average, unit: 'req/s', notes },
    { name: `${name} latency p50`, value: result.latency.p50, unit: 'ms', notes },
    { name: `${name} latency p99`, value: result.latency.p99, unit: 'ms', notes },
  ];
}

export async function run(): Promise<BenchResult[]> {
  const state = new RedisStateStore({
    url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    prefix: `cbbench:service:${randomUUID().slice(0, 8)}:`,
  });
  // Pace 0: the benchmark measures the service's work, not the builtin engine's simulated typing speed.
  const service = await startService({
    state,
    secretKey: SECRET,
    sessionKey: SESSION_KEY,
    engine: { kind: 'builtin', tokensPerSecond: 0 },
  });
  try {
    const auth = { authorization: SECRET };
    const askBot = await post<string>(`${service.url}/chat/Chatbot/Add`, { type: 0 }, auth);
    for (let i = 0; i < 8; i++) await post(`${service.url}/chat/Chatbot/RealEstateCreate`, listing(askBot, i), auth);
    const { SessionID } = await post<{ SessionID: number }>(
      `${service.url}/chat/Chatbot/GetSession`,
      { serialNumber: askBot },
      auth,
    );
    // Warm the tokenizer and caches so the first measured requests are not the odd ones out.
    await post(`${service.url}/chat/Chat/ClientAsk`, { sessionID: SessionID, content: 'warm up' }, auth);

    const listBot = await post<string>(`${service.url}/chat/Chatbot/Add`, { type: 0 }, auth);
    const listings = new ListingRepository(state);
    for (let start = 0; start < LISTINGS; start += 500) {
      await Promise.all(
        Array.from({ length: Math.min(500, LISTINGS - start) }, (_, k) => listings.create(listing(listBot, start + k))),
      );
    }

    return [
      ...(await measure(
        'service ClientAsk builtin (non-stream)',
        `${service.url}/chat/Chat/ClientAsk`,
        { sessionID: SessionID, content: '3 bedroom homes for sale in Austin under $600k' },
        auth,
      )),
      ...(await measure(
        `service RealEstateList over ${LISTINGS} listings`,
        `${service.url}/chat/Chatbot/RealEstateList`,
        { SerialNumber: listBot, CityName: 'austin', SaleType: 'for_sale', PageNumber: 3, PageSize: 20 },
        { 'chatrobot-sessionkey': SESSION_KEY },
      )),
    ];
  } finally {
    await service.close();
    await state.deleteByPrefix();
    await state.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  run().then(
    (results) => console.log(JSON.stringify(results, null, 2)),
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
