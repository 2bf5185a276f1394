import { type ChangeEvent, useEffect, useId, useRef, useState } from 'react';
import { QR_MESSAGES } from '../../shared/qr.ts';
import './qr-scanner.css';

// Loaded only when a scanner is opened (see qr-scanner-button.tsx). The native BarcodeDetector is used
// where the browser has one that reads QR codes; elsewhere html5-qrcode runs the camera and jsQR reads
// photos, each loaded only at that moment. A photo of the code works on every browser: iOS home-screen
// apps often get no live camera.

type DetectedCode = { rawValue: string };
type Detector = { detect: (source: CanvasImageSource | ImageBitmap) => Promise<DetectedCode[]> };
type DetectorClass = {
  new (options: { formats: string[] }): Detector;
  getSupportedFormats: () => Promise<string[]>;
};

/** The browser's BarcodeDetector when it can read QR codes, else null. */
async function nativeDetector(): Promise<Detector | null> {
  const Native = (globalThis as { BarcodeDetector?: DetectorClass }).BarcodeDetector;
  if (!Native) return null;
  try {
    const formats = await Native.getSupportedFormats();
    return formats.includes('qr_code') ? new Native({ formats: ['qr_code'] }) : null;
  } catch {
    return null;
  }
}

const loadHtml5Qrcode = () => import('html5-qrcode');
const loadJsQr = () => import('jsqr');

/**
 * Longest sides a photo is read at, smallest first: a phone photo of 12 megapixels is read quickly at
 * 1024 px when the code fills a fair part of it, and at up to 2048 px when it is small in the frame.
 */
const PHOTO_SIDES = [1024, 2048];

/**
 * The text of the QR code in a still image, or null when none is found. Photos are read by the native
 * BarcodeDetector where there is one, else by jsQR: html5-qrcode's ZXing decoder misses about one sharp,
 * computer-drawn code in six (a screenshot of a Receive code), depending only on the code's content.
 */
async function decodePhoto(file: File): Promise<string | null> {
  const bitmap = await createImageBitmap(file);
  try {
    const detector = await nativeDetector();
    if (detector) {
      const [code] = await detector.detect(bitmap);
      return code?.rawValue ?? null;
    }
    const { default: jsQR } = await loadJsQr();
    const longest = Math.max(bitmap.width, bitmap.height);
    for (const side of PHOTO_SIDES) {
      const scale = Math.min(1, side / longest);
      const width = Math.max(1, Math.round(bitmap.width * scale));
      const height = Math.max(1, Math.round(bitmap.height * scale));
      const canvas = document.createElement('canvas');
      canvas.width = width;
      canvas.height = height;
      const context = canvas.getContext('2d', { willReadFrequently: true });
      if (!context) return null;
      context.drawImage(bitmap, 0, 0, width, height);
      const code = jsQR(context.getImageData(0, 0, width, height).data, width, height);
      if (code) return code.data;
      if (scale === 1) break;
    }
    return null;
  } finally {
    bitmap.close();
  }
}

export type QrScannerProps = {
  /** Called with each code read: returns a message to show (and keep scanning), or undefined when done. */
  onResult: (text: string) => string | undefined;
};

/** The camera view (where the browser gives one) and the "Scan a photo" input. */
export function QrScanner({ onResult }: QrScannerProps) {
  const id = useId().replace(/[^a-zA-Z0-9_-]/g, '');
  const cameraRegionId = `qr-camera-${id}`;
  const videoRef = useRef<HTMLVideoElement>(null);
  const [cameraState, setCameraState] = useState<'starting' | 'native' | 'library' | 'failed'>('starting');
  const [message, setMessage] = useState<string | null>(null);
  const [reading, setReading] = useState(false);
  // The latest handler, so the camera loop started once always reports to the current one.
  const handler = useRef(onResult);
  handler.current = onResult;
  const lastText = useRef<string | null>(null);

  const report = (text: string) => {
    // The camera sees the same code many times a second: one answer per code.
    if (text === lastText.current) return;
    lastText.current = text;
    const answer = handler.current(text);
    if (answer) setMessage(answer);
  };
  const reportRef = useRef(report);
  reportRef.current = report;

  useEffect(() => {
    let stopped = false;
    const cleanups: Array<() => void | Promise<void>> = [];

    async function startNative(detector: Detector): Promise<void> {
      const stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' } });
      cleanups.push(() => {
        for (const track of stream.getTracks()) track.stop();
      });
      if (stopped) return;
      const video = videoRef.current;
      if (!video) return;
      video.srcObject = stream;
      await video.play();
      setCameraState('native');
      let timer: ReturnType<typeof setTimeout> | undefined;
      const tick = async () => {
        if (stopped) return;
        try {
          const [code] = await detector.detect(video);
          if (code?.rawValue) reportRef.current(code.rawValue);
        } catch {
          // A frame that could not be read (not ready yet): try the next one.
        }
        if (!stopped) timer = setTimeout(tick, 250);
      };
      cleanups.push(() => clearTimeout(timer));
      void tick();
    }

    async function startLibrary(): Promise<void> {
      const { Html5Qrcode, Html5QrcodeSupportedFormats } = await loadHtml5Qrcode();
      if (stopped) return;
      const scanner = new Html5Qrcode(cameraRegionId, {
        verbose: false,
        formatsToSupport: [Html5QrcodeSupportedFormats.QR_CODE],
      });
      cleanups.push(async () => {
        if (scanner.isScanning) await scanner.stop();
        scanner.clear();
      });
      setCameraState('library');
      await scanner.start(
        { facingMode: 'environment' },
        { fps: 8, qrbox: { width: 220, height: 220 } },
        (text) => reportRef.current(text),
        undefined,
      );
      // Closed while the camera was starting: stop it now that it can be stopped.
      if (stopped && scanner.isScanning) await scanner.stop();
    }

    (async () => {
      if (!navigator.mediaDevices?.getUserMedia) throw new Error('no camera');
      const detector = await nativeDetector();
      if (detector) await startNative(detector);
      else await startLibrary();
    })().catch(() => {
      if (!stopped) setCameraState('failed');
    });

    return () => {
      stopped = true;
      for (const cleanup of cleanups) {
        try {
          void Promise.resolve(cleanup()).catch(() => undefined);
        } catch {
          // The library refuses to clear a view it never drew: nothing left to stop.
        }
      }
    };
  }, [cameraRegionId]);

  async function scanPhoto(event: ChangeEvent<HTMLInputElement>) {
    const input = event.currentTarget;
    const file = input.files?.[0];
    input.value = '';
    if (!file) return;
    setReading(true);
    setMessage(null);
    try {
      const text = await decodePhoto(file);
      if (text === null) {
        setMessage(QR_MESSAGES.photoUnreadable);
        return;
      }
      lastText.current = null;
      report(text);
    } catch {
      setMessage(QR_MESSAGES.photoUnreadable);
    } finally {
      setReading(false);
    }
  }

  return (
    <div className="qr-scanner">
      {cameraState === 'failed' ? (
        <p className="muted" role="alert">
          {QR_MESSAGES.cameraUnavailable}
        </p>
      ) : (
        <>
          <video
            ref={videoRef}
            className="qr-scanner-view"
            hidden={cameraState !== 'native'}
            muted
            playsInline
            aria-label="Camera view"
          />
          <div id={cameraRegionId} className="qr-scanner-view" hidden={cameraState === 'native'} />
          {cameraState === 'starting' ? <p className="muted">Opening the camera…</p> : null}
        </>
      )}
      <label className="button qr-scanner-photo">
        {QR_MESSAGES.scanPhoto}
        {/* No capture attribute: phones then offer the camera and saved pictures (a screenshot of a code). */}
        <input
          className="visually-hidden"
          type="file"
          accept="image/*"
          onChange={scanPhoto}
          disabled={reading}
        />
      </label>
      <div aria-live="polite">
        {reading ? <p className="muted">Reading the photo…</p> : null}
        {message ? (
          <p className="field-error" role="alert">
            {message}
          </p>
        ) : null}
      </div>
    </div>
  );
}

export default QrScanner;
