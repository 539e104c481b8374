/** What the operator runs: the readiness probe, the API switch and the purge of expired sign-ins. */
export interface OperationsStore {
  /** Resolves when the database answers a trivial query. */
  ping(): Promise<void>;
  /** The API switch; on until an operator turns it off. */
  isApiEnabled(): Promise<boolean>;
  setApiEnabled(enabled: boolean): Promise<void>;
  /** Deletes sessions and emailed links that expired before `now`; how many of each. */
  purgeExpired(now: string): Promise<{ sessions: number; emailTokens: number }>;
}
