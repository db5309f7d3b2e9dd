/** One line of the doctor report. */
export interface DoctorCheck {
  name: string;
  status: "ok" | "warn" | "fail" | "skip";
  message: string;
  /** What to run or change, when something is not ok. */
  fix?: string;
}

/** Collects checks in order. */
export class DoctorReport {
  readonly checks: DoctorCheck[] = [];

  add(name: string, status: DoctorCheck["status"], message: string, fix?: string): void {
    this.checks.push(
      fix === undefined ? { name, status, message } : { name, status, message, fix },
    );
  }

  get ok(): boolean {
    return this.checks.every((check) => check.status !== "fail");
  }
}

/** `12.3 MiB` from bytes. */
export function formatBytes(bytes: number): string {
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}
