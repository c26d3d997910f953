/**
 * The test Redis Cluster launcher lives in fakes/ (outside test/, so that the replica
 * benchmark can start one too without importing the tests); tests import it here.
 */
export * from '../../fakes/redis-cluster.js';
