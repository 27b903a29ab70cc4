/** The timers the sandbox has running — sleeps and the tickers of never-ending bodies — so close() can end them all. */
export class OpenTimers {
  private readonly sleeps = new Set<NodeJS.Timeout>();
  private readonly tickers = new Set<NodeJS.Timeout>();

  /** Resolves after `ms`; never, once clear() has run. */
  sleep(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.sleeps.delete(timer);
        resolve();
      }, ms);
      this.sleeps.add(timer);
    });
  }

  /** Calls `tick` every `ms` until the returned stop is called (or clear()). */
  every(ms: number, tick: () => void): () => void {
    const ticker = setInterval(tick, ms);
    this.tickers.add(ticker);
    return () => {
      clearInterval(ticker);
      this.tickers.delete(ticker);
    };
  }

  clear(): void {
    for (const timer of this.sleeps) clearTimeout(timer);
    this.sleeps.clear();
    for (const ticker of this.tickers) clearInterval(ticker);
    this.tickers.clear();
  }
}
