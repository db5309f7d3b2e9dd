/** One numbered schema change. `up` receives the quoted schema name. */
export interface Migration {
  version: number;
  name: string;
  up: (schema: string) => string;
}
