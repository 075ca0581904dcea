import { useCallback, useState, type RefObject } from 'react';
import { createPortal } from 'react-dom';
import { Button, Group, Modal, SegmentedControl, Stack, Text } from '@mantine/core';
import { formatDateTime, formatMoney, formatWeight } from '../../../lib/format.ts';
import { useTariffSettings } from '../api/get-surcharges.ts';
import type { Shipment } from '../types.ts';
import { Barcode } from './Barcode.tsx';
import { TrackingQr } from './TrackingQr.tsx';

/** Spec section 9: label widths; the choice is remembered on this browser. */
const WIDTHS = ['58', '80'] as const;
type LabelWidth = (typeof WIDTHS)[number];
export const LABEL_WIDTH_STORAGE_KEY = 'tramo.labelWidth';

function storedWidth(): LabelWidth {
  const saved = localStorage.getItem(LABEL_WIDTH_STORAGE_KEY);
  return saved === '80' ? '80' : '58';
}

const PX_PER_MM = 96 / 25.4;

function LabelContent({ shipment, width, clause }: { shipment: Shipment; width: LabelWidth; clause: string | null }) {
  // Bultos: each line's packages (issue 34); lines stored before it are one package each.
  const lines = shipment.multiLineDetail?.reduce((n, l) => n + (l.packages ?? 1), 0) || 1;
  const small = width === '58';
  return (
    <div
      className="shipment-label"
      style={{
        width: `${width}mm`,
        padding: '2mm 3mm',
        boxSizing: 'border-box',
        fontSize: small ? 10 : 12,
        color: '#000',
        background: '#fff',
        lineHeight: 1.3,
      }}
    >
      <div style={{ fontWeight: 700, fontSize: small ? 12 : 14, textAlign: 'center' }}>TRAMO</div>
      <Barcode text={shipment.code} height={small ? 10 : 12} />
      <div style={{ fontWeight: 700, fontSize: small ? 11 : 13, textAlign: 'center', margin: '1mm 0' }}>
        {shipment.originBranch.name} → {shipment.destinationBranch.name}
      </div>
      {/* The QR of the public tracking page beside the details: the customer scans it with a phone. */}
      <div style={{ display: 'flex', gap: '2mm', alignItems: 'flex-start' }}>
        <TrackingQr code={shipment.code} size={small ? 16 : 22} />
        <div style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
          <div>
            <b>Destinatario:</b> {shipment.recipientName}
          </div>
          <div>
            <b>Doc.:</b> {shipment.recipientDoc}
          </div>
          <div>
            <b>Fecha:</b> {formatDateTime(shipment.createdAt)}
          </div>
          <div>
            <b>Peso:</b> {formatWeight(shipment.weightKg)} · {lines} {lines === 1 ? 'bulto' : 'bultos'}
          </div>
          <div>
            <b>Valor declarado:</b> {shipment.declaredValue != null ? formatMoney(shipment.declaredValue) : 'No declarado'}
            {shipment.insured ? ' (asegurado)' : ''}
          </div>
        </div>
      </div>
      {/* Pago en destino (issue 33): the destination counter collects this before handing the parcel over. */}
      {shipment.paymentMoment === 'destino' && !shipment.freightPaid && (
        <div
          data-testid="label-due"
          style={{ border: '1.5px solid #000', fontWeight: 700, fontSize: small ? 11 : 13, textAlign: 'center', margin: '1mm 0', padding: '0.5mm' }}
        >
          PAGO EN DESTINO {formatMoney(shipment.quotedPrice)}
        </div>
      )}
      {clause && <div style={{ fontSize: small ? 7 : 8, marginTop: '1mm', borderTop: '1px dashed #000', paddingTop: '1mm' }}>{clause}</div>}
    </div>
  );
}

/**
 * Until the preview is measured the page is this tall: a valid size that holds one label (an
 * `auto` height would make the whole @page rule invalid and Chromium print on letter paper).
 */
const FALLBACK_HEIGHT_MM = 90;

/**
 * Prints exactly one label at the chosen width: while open it injects an @page rule sized to the
 * label (measured from the preview, which is drawn at the same width in mm) and a print copy of
 * the label outside the app root; in print every other child of <body> is taken out of the flow,
 * so the hidden page cannot add blank sheets.
 */
export function LabelModal({
  shipment,
  onClose,
  returnFocusTo,
}: {
  shipment: Shipment | null;
  onClose(): void;
  /** Where the work goes on once it closes (issue 38: 'Cobrar' after the label); else back to what opened it. */
  returnFocusTo?: RefObject<HTMLElement | null>;
}) {
  const [width, setWidth] = useState<LabelWidth>(storedWidth);
  const [heightMm, setHeightMm] = useState<number | null>(null);
  const clause = useTariffSettings().data?.liabilityClause ?? null;

  // A callback ref, not an effect: the Modal mounts its portal after the first commit, so an effect
  // would find no preview on the first open. It runs again when the width changes (new callback),
  // and the observer follows later changes of height (the barcode replaces its placeholder).
  const previewRef = useCallback(
    (node: HTMLDivElement | null) => {
      if (!node) return;
      const measure = () => {
        const el = node.firstElementChild as HTMLElement | null;
        if (el && el.offsetHeight > 0) setHeightMm(Math.ceil(el.offsetHeight / PX_PER_MM) + 2);
      };
      measure();
      const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
      observer?.observe(node);
      return () => observer?.disconnect();
    },
    // Not read inside: a new width must give a new callback so React measures again at once.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [width],
  );

  const choose = (value: string) => {
    const next: LabelWidth = value === '80' ? '80' : '58';
    setWidth(next);
    localStorage.setItem(LABEL_WIDTH_STORAGE_KEY, next);
  };

  const pageSize = `${width}mm ${heightMm ?? FALLBACK_HEIGHT_MM}mm`;

  return (
    <Modal
      opened={shipment !== null}
      onClose={onClose}
      title={shipment ? `Etiqueta ${shipment.code}` : 'Etiqueta'}
      size="auto"
      centered
      returnFocus={!returnFocusTo}
      onExitTransitionEnd={() => returnFocusTo?.current?.focus()}
    >
      {shipment && (
        <Stack gap="md" miw={340}>
          <Group justify="space-between">
            <Text size="sm">Ancho del papel</Text>
            <SegmentedControl
              aria-label="Ancho de la etiqueta"
              data={WIDTHS.map((w) => ({ value: w, label: `${w} mm` }))}
              value={width}
              onChange={choose}
            />
          </Group>
          <Group justify="center" p="sm" bg="gray.1" style={{ borderRadius: 4 }}>
            <div ref={previewRef} style={{ boxShadow: '0 1px 4px rgba(0,0,0,.2)' }}>
              <LabelContent shipment={shipment} width={width} clause={clause} />
            </div>
          </Group>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cerrar
            </Button>
            {/* The print dialog blocks until it is done: then the label's work is too, and the counter goes on (issue 38). */}
            <Button
              onClick={() => {
                window.print();
                onClose();
              }}
            >
              Imprimir
            </Button>
          </Group>
          {createPortal(
            <>
              <style>{`
                .label-print-root { display: none; }
                @page { size: ${pageSize}; margin: 0; }
                @media print {
                  html, body { margin: 0 !important; padding: 0 !important; height: auto !important; background: #fff !important; }
                  body > :not(.label-print-root) { display: none !important; }
                  .label-print-root { display: block !important; }
                }
              `}</style>
              <div className="label-print-root print-area">
                <LabelContent shipment={shipment} width={width} clause={clause} />
              </div>
            </>,
            document.body,
          )}
        </Stack>
      )}
    </Modal>
  );
}
