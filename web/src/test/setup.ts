import { afterEach } from 'vitest';
import { cleanup } from '@testing-library/react';

// Each test starts from an empty page (testing-library unmounts by itself only with globals on).
afterEach(cleanup);
