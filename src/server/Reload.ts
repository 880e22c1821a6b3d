/**
 * The content-update check moved to the `ContentCatalog` service
 * (`src/services/ContentCatalog.ts`); these names stay for the root export
 * until it takes them from the service's namespace.
 *
 * @since 0.1.0
 */
import { ContentCatalog } from "../services/index.js"

export const { checkStoredInstances, runtimeInfo, SERVER_VERSION } = ContentCatalog
