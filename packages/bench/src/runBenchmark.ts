export async function runBenchmark(_: unknown) {}
