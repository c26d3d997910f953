// cluster-key-slot ships no types; this is its whole public surface (lib/index.js).
declare module 'cluster-key-slot' {
  /** The Redis Cluster slot (0..16383) of a key, honouring a {hash tag}. */
  function generate(key: string | Buffer): number;
  /** The common slot of all keys, or -1 when they differ. */
  export function generateMulti(keys: readonly (string | Buffer)[]): number;
  export default generate;
}
