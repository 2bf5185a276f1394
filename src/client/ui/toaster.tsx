import { Toaster as HotToaster } from 'react-hot-toast';
import { TOAST_DURATION_MS, TOAST_MAX_WIDTH_PX, TOAST_SUCCESS_DURATION_MS } from '../../shared/constants.ts';

// Spec 9 toast defaults: top-center, 4 s (2 s for success, loading until dismissed), at most 20 kept
// (react-hot-toast's own limit), at most 350 px wide.
export function Toaster() {
  return (
    <HotToaster
      position="top-center"
      toastOptions={{
        duration: TOAST_DURATION_MS,
        success: { duration: TOAST_SUCCESS_DURATION_MS },
        loading: { duration: Number.POSITIVE_INFINITY },
        style: { maxWidth: TOAST_MAX_WIDTH_PX },
      }}
    />
  );
}
