// Work on one path at a time: each task for a path starts once the previous one for it is over,
// so that the last file-watch event of a file wins.

export class PathQueue {
  private readonly tails = new Map<string, Promise<void>>();

  /** Runs `task` after the tasks queued for `path`; a failure goes to `failed`, never to the queue. */
  run(path: string, task: () => Promise<void>, failed: (error: unknown) => void): Promise<void> {
    const previous = this.tails.get(path) ?? Promise.resolve();
    const next = previous.then(task).catch(failed);
    this.tails.set(path, next);
    void next.then(() => {
      if (this.tails.get(path) === next) this.tails.delete(path);
    });
    return next;
  }
}
