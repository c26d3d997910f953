/**
 * The round-robin load balancer lives in fakes/ (outside test/, so that the replica
 * benchmark can use it too without importing the tests); tests import it here.
 */
export * from '../../fakes/round-robin-proxy.js';
