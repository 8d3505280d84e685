// Per-document memo: analyses that several rules (and the hover) need are computed once.

export interface MemoKey<T> {
  readonly name: string;
  /** Phantom field that carries T; never set. */
  readonly _type?: T;
}

export function memoKey<T>(name: string): MemoKey<T> {
  return { name };
}

export class Memo {
  private readonly values = new Map<MemoKey<unknown>, unknown>();

  get<T>(key: MemoKey<T>, compute: () => T): T {
    if (this.values.has(key as MemoKey<unknown>)) return this.values.get(key as MemoKey<unknown>) as T;
    const value = compute();
    this.values.set(key as MemoKey<unknown>, value);
    return value;
  }
}
