// Listeners of one kind of event: each is called in turn, and one that throws is logged, never
// stopping the others or the change that emitted.

export class Listeners<T> {
  private readonly list: ((value: T) => void)[] = [];

  constructor(
    private readonly log: (message: string) => void,
    /** What a failure is logged as: `a ${what} listener failed`. */
    private readonly what: string,
  ) {}

  add(listener: (value: T) => void): void {
    this.list.push(listener);
  }

  emit(value: T): void {
    for (const listener of this.list) {
      try {
        listener(value);
      } catch (error) {
        this.log(`a ${this.what} listener failed: ${errorText(error)}`);
      }
    }
  }

  clear(): void {
    this.list.length = 0;
  }
}

export function errorText(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
