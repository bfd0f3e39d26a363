/// <reference types="@cloudflare/vitest-plugin/types/cloudflare-test.d.ts" />
