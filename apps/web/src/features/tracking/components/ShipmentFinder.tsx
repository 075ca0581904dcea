import { useState, type ReactNode } from 'react';
import { Alert, Grid, Group, Text, TextInput } from '@mantine/core';
import { normalizeShipmentCode, SHIPMENT_MESSAGES, SHIPMENT_SEARCH_MIN_LENGTH } from '@tramo/domain';
import { CameraScanButton, type CameraReadResult } from '../../../components/scan/CameraScanButton.tsx';
import { beep } from '../../../components/scan/feedback.ts';
import { PageHeader } from '../../../components/ui/PageHeader.tsx';
import { PageSkeleton } from '../../../components/ui/PageSkeleton.tsx';
import { SearchInput } from '../../../components/ui/SearchInput.tsx';
import { ApiError } from '../../../lib/api.ts';
import { useUrlState } from '../../../lib/url-state.ts';
import { useShipmentByCode, useShipmentSearch, type Shipment } from '../../shipments/index.ts';
import { ShipmentResults } from './ShipmentResults.tsx';
import { ShipmentSummary } from './ShipmentSummary.tsx';

export interface ShipmentFinderProps {
  title: string;
  description: string;
  /**
   * Entregas has a box of its own for the scanned code (the search box is for names and
   * documents, and the summary gives the recipient's document a field of its own); on Rastreo the
   * one search box takes codes too, and a new search closes the shipment.
   */
  codeField?: boolean;
  search: { label: string; placeholder: string; width: number };
  /** Shown while nothing is searched or open. */
  hint: string;
  /** Beside the summary of the open shipment: its history (Rastreo) or the delivery (Entregas). */
  aside(shipment: Shipment): ReactNode;
  /** Columns of twelve the aside takes on a wide screen. */
  asideSpan: number;
  /** More controls at the end of the page header (Entregas: the admin's proof-of-delivery rule). */
  headerExtra?: ReactNode;
}

/**
 * Find any branch's shipment by code, recipient document or name, and open it: the search and the
 * open code live in the address, so a reload or a shared link shows the same shipment.
 */
export function ShipmentFinder({ title, description, codeField = false, search, hint, aside, asideSpan, headerExtra }: ShipmentFinderProps) {
  const [url, setUrl] = useUrlState({ q: '', code: '' }, { replace: true });
  const [codeText, setCodeText] = useState(url.code);
  const [codeError, setCodeError] = useState<string | null>(null);
  const results = useShipmentSearch(url.q);

  // A scanned or typed code that matches a result opens it at once; an explicit choice wins.
  const typedCode = normalizeShipmentCode(url.q);
  const exact = typedCode ? results.data?.find((s) => s.code === typedCode) : undefined;
  const code = url.code || exact?.code || null;
  const detail = useShipmentByCode(code);

  const open = (next: string) => {
    setCodeText(next);
    setUrl({ code: next });
  };
  const openTypedCode = () => {
    const normalized = normalizeShipmentCode(codeText);
    setCodeError(codeText.trim() && !normalized ? 'Código inválido (TMT-000123)' : null);
    if (normalized) open(normalized);
  };
  // The camera finds one parcel to hand over: a good read opens it and closes the camera.
  const openScannedCode = async (scanned: string): Promise<CameraReadResult> => {
    const normalized = normalizeShipmentCode(scanned);
    if (!normalized) {
      beep('unknown');
      return { tone: 'unknown', message: `${scanned} no es un código de envío (TMT-000123).` };
    }
    beep('ok');
    setCodeError(null);
    open(normalized);
    return { tone: 'ok', message: `Envío ${normalized}`, done: true };
  };

  return (
    <>
      <PageHeader title={title} description={description}>
        {codeField && (
          <Group gap="xs" wrap="nowrap" align="flex-start">
            <TextInput
              aria-label="Código de envío"
              placeholder="Código de envío (escanear)"
              autoFocus
              w={220}
              value={codeText}
              error={codeError}
              onChange={(e) => setCodeText(e.currentTarget.value)}
              onKeyDown={(e) => {
                // A barcode scanner types the code and Enter.
                if (e.key === 'Enter') {
                  e.preventDefault();
                  openTypedCode();
                }
              }}
            />
            <CameraScanButton title="Escanear el envío con la cámara" onRead={openScannedCode} />
          </Group>
        )}
        <SearchInput
          value={url.q}
          onSearch={(v) => setUrl(codeField ? { q: v.trim() } : { q: v.trim(), code: null })}
          placeholder={search.placeholder}
          minLength={SHIPMENT_SEARCH_MIN_LENGTH}
          tooShortMessage={SHIPMENT_MESSAGES.searchTermTooShort}
          aria-label={search.label}
          autoFocus={!codeField}
          w={search.width}
        />
        {headerExtra}
      </PageHeader>

      {/* The open shipment comes first: a long result list must not push it out of view. */}
      {code &&
        (detail.isPending ? (
          <PageSkeleton rows={4} />
        ) : detail.isError ? (
          <Alert color="red" variant="light" role="alert" mb="md">
            {detail.error instanceof ApiError && detail.error.status === 404 ? 'No encontrado.' : 'No encontrado o error de conexión.'}
          </Alert>
        ) : (
          <Grid gap="md" mb="md">
            <Grid.Col span={{ base: 12, md: 12 - asideSpan }}>
              <ShipmentSummary shipment={detail.data} docApart={codeField} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: asideSpan }}>{aside(detail.data)}</Grid.Col>
          </Grid>
        ))}

      {url.q && (
        <ShipmentResults rows={results.data} loading={results.isPending} failed={results.isError} selectedCode={code} onOpen={(s) => open(s.code)} />
      )}

      {!code && !url.q && (
        <Text c="dimmed" size="sm" mb="md">
          {hint}
        </Text>
      )}
    </>
  );
}
