import type { RouteSpec } from "../route-spec.js";
import { collectionRoutes } from "./collection-routes.js";
import { entityRoutes } from "./entity-routes.js";
import { fileRoutes } from "./file-routes.js";
import { healthRoutes } from "./health-routes.js";
import { jobRoutes } from "./job-routes.js";
import { knowledgeGraphRoutes } from "./knowledge-graph-routes.js";
import { memoryRoutes } from "./memory-routes.js";
import { namespaceRoutes } from "./namespace-routes.js";
import { recallRoutes } from "./recall-routes.js";
import { relationRoutes } from "./relation-routes.js";
import { repairRoutes } from "./repair-routes.js";
import { transferRoutes } from "./transfer-routes.js";
import { turnRoutes } from "./turn-routes.js";
import { usageRoutes } from "./usage-routes.js";

/**
 * Every route of the HTTP API, one file per resource. Each handler validates nothing itself
 * (the app does, from the route's schemas) and calls one operation of src/operations/.
 */
export const routes: RouteSpec[] = [
  ...healthRoutes,
  ...memoryRoutes,
  ...repairRoutes,
  ...relationRoutes,
  ...entityRoutes,
  ...knowledgeGraphRoutes,
  ...namespaceRoutes,
  ...recallRoutes,
  ...usageRoutes,
  ...transferRoutes,
  ...turnRoutes,
  ...jobRoutes,
  ...fileRoutes,
  ...collectionRoutes,
];
