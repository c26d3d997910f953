/** Types of ioredis-round-trips.cjs (see there). `ioredis`: the module (its Redis and Pipeline classes are patched). */
export declare function countRoundTrips(
  ioredis: { Redis: { prototype: object }; Pipeline: { prototype: object } },
  count: (roundTrips: number, command: string | undefined) => void,
  accept?: (client: unknown) => boolean,
): () => void;
