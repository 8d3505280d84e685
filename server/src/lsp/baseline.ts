// The baseline catalog of a session: the catalog files as the session first read them from disk
// (at the first load), or as they were when the user last accepted the catalog (the
// `acceptCatalog` command): what `aggregation/advertised-rename` compares the current catalog
// with. In memory only: a session never asks git (a repository's git configuration can run
// commands).
import type { LensConfig } from '../core/config/config.js';
import { advertisableNames } from '../core/listing/renames.js';
import type { ParsedFile } from '../core/parse/file.js';
import { catalogBaseline, type BaselineFile, type CatalogBaseline, type Workspace } from '../core/workspace.js';

export class BaselineCatalog {
  private files: BaselineFile[] | undefined;
  /** The baseline built for the current workspace and configuration. */
  private built: { workspace: Workspace; config: LensConfig; baseline: CatalogBaseline } | undefined;
  /** The files were taken from the catalog as it then was (see attach). */
  private isCurrent = false;

  /** Whether the files have been taken (at the first load). */
  get taken(): boolean {
    return this.files !== undefined;
  }

  /** The files at the first load; `current`: they are the catalog's texts as the session reads them. */
  take(files: BaselineFile[], current: boolean): void {
    this.files = files;
    this.isCurrent = current;
  }

  /** The catalog as the session reads it now becomes the baseline. */
  accept(files: BaselineFile[]): void {
    this.files = files;
    this.isCurrent = true;
    this.built = undefined;
  }

  /** Puts the baseline on the workspace, made again when the workspace or its configuration is another. */
  attach(workspace: Workspace, checkedFiles: () => Iterable<ParsedFile>): void {
    if (!this.files) return;
    const built = this.built;
    if (!built || built.workspace !== workspace || built.config !== workspace.config) {
      // Taken from the catalog as it is (at start-up without unsaved editors, or when accepted), the
      // baseline's names are the current ones: it is parsed only once a change makes them differ.
      const known = !built && this.isCurrent ? advertisableNames(workspace.catalog) : undefined;
      const baseline = catalogBaseline(workspace, this.files, checkedFiles, advertisableNames, known);
      this.built = { workspace, config: workspace.config, baseline };
    }
    workspace.baseline = this.built!.baseline;
  }
}
