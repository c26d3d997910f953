/** One measured number, as every suite reports it and bench/run.ts writes it to BENCHMARKS.md. */
export interface BenchResult {
  name: string;
  value: number;
  unit: string;
  notes?: string;
}
