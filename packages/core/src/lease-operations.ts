import {
  type JobState,
  type Lease,
  serializeJobState,
  validateLease,
  validateLeaseName,
  validateLeaseTtl,
} from "@memory/api";
import type { FacadeContext } from "./facade-context.js";

export async function acquireLease(
  context: FacadeContext,
  name: string,
  holder: string,
  ttlMs: number,
): Promise<Lease | null> {
  const leaseName = validateLeaseName(name);
  const leaseHolder = validateLeaseName(holder, "lease holder");
  const ttl = validateLeaseTtl(ttlMs);
  return context.driver.leases.acquire(leaseName, leaseHolder, ttl, context.options.now());
}

export async function releaseLease(context: FacadeContext, lease: Lease): Promise<boolean> {
  return context.driver.leases.release(validateLease(lease));
}

export async function getJobState(context: FacadeContext, job: string): Promise<JobState | null> {
  const text = await context.driver.leases.readJobState(validateLeaseName(job, "job name"));
  return text === null ? null : (JSON.parse(text) as JobState);
}

export async function setJobState(
  context: FacadeContext,
  job: string,
  state: JobState,
): Promise<void> {
  const name = validateLeaseName(job, "job name");
  await context.driver.leases.writeJobState(name, serializeJobState(state));
}
