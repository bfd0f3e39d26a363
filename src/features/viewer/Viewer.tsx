/**
 * The viewer island (spec §2 viewer, SCROLL and PAPER modes; §9 image widths and lazy load).
 *
 * - The episode of the page: its slices at known sizes (no layout shift), loaded three screens ahead, a retry
 *   per failed slice; PAPER mode pages it (single or double, in the series' reading direction).
 * - Continuous reading (SCROLL): before the reader reaches the end, the next episode is fetched through the API
 *   and appended below (its first slices load ahead), the URL follows the episode on screen (replaceState), and
 *   a locked next episode is offered — or unlocked automatically when the reader opted in for the series.
 * - Comfort: zoom (pinch, double-tap to fit, + / −), auto-scroll with a speed control, fullscreen (f), keyboard
 *   navigation with a help panel; Esc closes overlays.
 * - Reading progress saved per episode (signed-in readers) and restored, from the server or from `?p=`.
 *
 * The server HTML of this island already holds every slice of the page's episode (readable without JavaScript)
 * and, when the reader's settings cookie says so, the PAPER layout (no flash).
 *
 * This component is the layout and the wiring; each part is a hook beside it: use-settings, use-pages (PAPER),
 * use-continuous, use-progress, use-zoom, use-auto-scroll, use-overlays, use-keys (the rule: keys.ts), use-offline,
 * use-chrome (immersive reading; its one compact bar: ViewerBar.tsx).
 */
import { useEffect, useLayoutEffect, useRef, useState, type MouseEvent, type PointerEvent } from 'react'
import { FONT_SIZES, viewerLoginHref, MAX_ZOOM, type ReadingDirection, type ViewerSettings } from './reading.ts'
import SliceList from './SliceList.tsx'
import { Icon } from '../../components/Icon.tsx'
import type { EpisodeLink, ViewerSlice } from './viewer.ts'
import NextEpisode, { type NextLabels } from './NextEpisode.tsx'
import { TRANSCRIPT_REGION_ID, TranscriptToggle, type TranscriptLabels } from './Transcript.tsx'
import { pluralText, type Plural } from '../../lib/i18n/plural.ts'
import { useSettings, useTextFont } from './use-settings.ts'
import { usePages } from './use-pages.ts'
import { useContinuous, type EpisodeHead } from './use-continuous.ts'
import { useProgress } from './use-progress.ts'
import { useZoom } from './use-zoom.ts'
import { useAutoScroll } from './use-auto-scroll.ts'
import { useOverlays } from './use-overlays.ts'
import { useKeys } from './use-keys.ts'
import { useOffline } from './use-offline.ts'
import { episodeLabel } from '../../lib/i18n/episode-label.ts'
import { useChrome } from './use-chrome.ts'
import { swipeStep, tapZone } from './immersive.ts'
import ViewerBar, { type BarLabels } from './ViewerBar.tsx'
import { canonicalUrl } from '../catalogue/canonical.ts'
import Like, { type LikeLabels } from '../like/Like.tsx'

type ViewerLabels = NextLabels &
  TranscriptLabels &
  LikeLabels &
  BarLabels & {
    slices: string
    sliceFailed: string
    helpTitle: string
    helpScroll: string
    helpPage: string
    helpNext: string
    helpPrev: string
    helpEscape: string
    helpToggle: string
    helpZoom: string
    helpFit: string
    helpAutoScroll: string
    helpSpeed: string
    helpFullscreen: string
    close: string
    helpTurn: string
    /** The settings' switch of the single-character shortcuts. */
    shortcutsSetting: string
    /** In the help, when the reader switched them off. */
    shortcutsOff: string
    settingsTitle: string
    mode: string
    modeScroll: string
    modePaper: string
    layout: string
    single: string
    double: string
    font: string
    fontSans: string
    fontSerif: string
    fontSize: string
    pageNav: string
    prevPage: string
    nextPage: string
    /** "{current} / {total}" */
    pageIndicator: string
    end: string
    episodeNav: string
    prevEpisode: string
    nextEpisode: string
    zoomIn: string
    zoomOut: string
    /** "{percent} %" */
    zoomLevel: string
    keyUp: string
    /** Key caps as the edition's keyboards print them (issue 35 point 6): Espace, Pg suiv, Pg préc, Échap in fr. */
    keySpace: string
    keyPageDown: string
    keyPageUp: string
    keyEscape: string
    keyDown: string
    keyLeft: string
    keyRight: string
    /** Counts the budget, with {spent}. */
    autoActive: Plural
    autoDisable: string
    autoDisabled: string
    offlineSave: string
    offlineSaving: string
    offlineSaved: string
    offlineFailed: string
    offlineExpiredTitle: string
    offlineExpiredText: string
    /** "Lisez « {title} » sur …" */
    shareText: string
    shareCopied: string
    shareFailed: string
  }

export type ViewerProps = {
  episodeId: number
  no: number
  title: string
  seriesId: number
  seriesTitle: string
  /** Empty for TEXT episodes: their paragraphs are server HTML in `#viewer-content`. */
  slices: ViewerSlice[]
  prev: EpisodeLink | null
  next: EpisodeLink | null
  /** Whether `next` opens for this reader now (viewer.ts ViewerEpisode.nextOpen). */
  nextOpen: boolean
  /** The series' next update, formatted ("Prochain épisode le …"), shown after an episode without a next one. */
  nextUpdate: string | null
  /** Saved position (0..1) to restore, or null. */
  progress: number | null
  /** The episode's likes and whether the reader likes it (issue 37 point 3). */
  likes: number
  liked: boolean
  /** The like form's refusal (sent without JavaScript), in the reader's language, or null. */
  likeError: string | null
  /** The signed-in reader, or null for a guest. */
  userId: number | null
  /** The series' reading direction: PAPER pages of a right-to-left series turn forward with ArrowLeft. */
  readingDirection: ReadingDirection
  /** localStorage key and cookie name of the reader's settings (one per edition). */
  settingsKey: string
  /** Settings read from the cookie by the server (null: none; the island reads localStorage). */
  initialSettings: ViewerSettings | null
  /** An owned or rented episode may be saved for offline reading (until `expiresAt` for a rental; listed on /setting by its names); null otherwise. */
  offline: { expiresAt: string | null; series: string; episode: string } | null
  /** The edition's public origin: an episode is shared by its canonical URL. */
  siteUrl: string
  labels: ViewerLabels
}

/** An arrow key of the shortcut list: drawn as an icon, named by hidden text. */
function arrowKey(name: 'up' | 'down' | 'left' | 'right', label: string) {
  return (
    <kbd className="viewer-key">
      <Icon name={name} size={14} />
      <span className="sr-only">{label}</span>
    </kbd>
  )
}

/** `{name}` placeholders of a label. */
function format(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (m, k: string) => (k in values ? String(values[k]) : m))
}

export default function Viewer(props: ViewerProps) {
  const { episodeId, slices, progress, userId, readingDirection, settingsKey, initialSettings, labels } = props
  const signedIn = userId !== null
  const [announcement, setAnnouncement] = useState('')
  /** Each episode's like as the reader's last answered click left it (see `like`). */
  const likeStates = useRef(new Map<number, { liked: boolean; likes: number }>())
  const { settings, update, loaded, ready, wide } = useSettings(settingsKey, initialSettings)

  const isText = slices.length === 0
  /** Slices with a transcript: the toggle is offered, the strip becomes a named region. */
  const withTranscript = slices.some((s) => s.transcript)
  const paper = loaded && !isText && settings.mode === 'PAPER'
  const double = paper && settings.double && wide
  const { page, shown, ahead, lastPage, indicator, turn: turnPage, setSlice, list } = usePages(slices.length, paper, double)

  const first: EpisodeHead = {
    id: episodeId,
    no: props.no,
    title: props.title,
    prev: props.prev,
    next: props.next,
    nextOpen: props.nextOpen,
    likes: props.likes,
    liked: props.liked,
  }
  const continuous = useContinuous({ first, seriesId: props.seriesId, signedIn, paper, ready, announce: setAnnouncement })
  const { chain, tail, auto, changeAuto, last, sections, sentinel, fetchNext } = continuous
  const chrome = useChrome()
  /** A turn waiting for its page to be rendered before it is put on screen (then nothing moves it after). */
  const turned = useRef(false)
  /** Scrolls the page list under the bar; the scroll is the viewer's own (it hides or shows no chrome). */
  const pageOnScreen = () => {
    const y = scrollY
    list.current?.scrollIntoView({ behavior: 'instant' })
    chrome.own(scrollY !== y)
  }
  useLayoutEffect(() => {
    if (!turned.current) return
    turned.current = false
    pageOnScreen()
  })
  /**
   * PAPER (issue 35 point 8): a turn (tap, swipe, key, button) puts the new page on screen below the bar with its
   * controls (the page's CSS sizes it to fit), a scroll of the viewer's own; past the last page it leads on: to the
   * next episode, else to this one's end.
   */
  const turn = (step: number) => {
    if (step > 0 && lastPage) {
      if (first.next) continuous.goEpisode(1)
      else document.querySelector('.viewer-end')?.scrollIntoView()
      return
    }
    if (turnPage(step)) turned.current = true
    else pageOnScreen()
  }
  useTextFont(loaded && isText, settings.font, settings.fontSize, chain.length)

  useProgress({
    episodeId,
    progress,
    signedIn,
    loaded,
    paper,
    page,
    double,
    count: slices.length,
    setSlice,
    episodes: continuous.episodes,
    current: continuous.current,
    sectionOf: continuous.sectionOf,
  })
  const { zoom, strip, applyZoom, zoomBy, fit } = useZoom(paper, ready)
  /** The strip of the episodes joined below (continuous reading) zooms with the page's own (CSSOM: no inline style in the HTML). */
  const chainStrip = useRef<HTMLDivElement | null>(null)
  useEffect(() => {
    chainStrip.current?.style.setProperty('--viewer-zoom', String(zoom))
  }, [zoom, paper])
  const { autoScroll, speed, setSpeed, toggleAutoScroll, stopAutoScroll, stepSpeed } = useAutoScroll(paper)
  const { helpOpen, setHelpOpen, settingsOpen, setSettingsOpen, help, settings: settingsDialog } = useOverlays()
  useKeys({
    helpOpen,
    setHelpOpen,
    letters: settings.shortcuts,
    autoScroll,
    toggleAutoScroll,
    stopAutoScroll,
    stepSpeed,
    paper,
    isText,
    direction: readingDirection,
    turn,
    zoomBy,
    applyZoom,
    goEpisode: continuous.goEpisode,
  })
  const onScreen = continuous.episodes[Math.min(continuous.current, continuous.episodes.length - 1)]!
  const shownEpisode = onScreen.id
  // The site's script comes after this island on the viewer page (Base.astro `lateShell`, site-late.ts). The site header's
  // balance and bell are hidden under the viewer's bar: the session client loads with the first coin movement
  // (`coinChanged`), which reaches the reader's other tabs. Guarded so the server's bundle leaves it out: through it
  // the age popup's React DOM client (485 KB) would ride in the worker, which never runs an effect.
  useEffect(() => {
    if (!import.meta.env.SSR) void import('../../components/site-late.ts')
  }, [])
  // Links outside the island about the episode (comments) follow the episode being read.
  useEffect(() => {
    document.querySelectorAll<HTMLAnchorElement>('a[data-follow-episode]').forEach((a) => {
      const url = new URL(a.href)
      url.searchParams.set('episodeId', String(shownEpisode))
      a.href = url.pathname + url.search
    })
  }, [shownEpisode])
  // PAPER: the recommendations below only once the last page is reached (a tap near a page's edge opens nothing).
  const reading = paper && !lastPage
  useEffect(() => {
    document.documentElement.toggleAttribute('data-paper-reading', reading)
    return () => {
      document.documentElement.removeAttribute('data-paper-reading')
    }
  }, [reading])
  /** Where a PAPER swipe started (null: none, or it turned the page and the click that follows is swallowed). */
  const swipe = useRef<{ x: number; y: number; turned: boolean } | null>(null)
  const onPointerDown = (e: PointerEvent) => {
    if (paper) swipe.current = { x: e.clientX, y: e.clientY, turned: false }
  }
  const onPointerUp = (e: PointerEvent) => {
    const start = swipe.current
    if (!paper || !start) return
    const step = swipeStep(e.clientX - start.x, e.clientY - start.y, readingDirection)
    if (step !== 0 && zoom <= 1) {
      turn(step)
      start.turned = true
    }
  }
  /** A tap on the episode: PAPER turns pages from the outer thirds and toggles the chrome from the middle; SCROLL toggles it. */
  const onTap = (e: MouseEvent) => {
    if ((e.target as HTMLElement).closest('a, button, input, select, textarea, label, summary')) return
    if (swipe.current?.turned) {
      swipe.current = null
      return
    }
    swipe.current = null
    const pageList = paper ? list.current : null
    if (!pageList) {
      chrome.toggle()
      return
    }
    const r = pageList.getBoundingClientRect()
    const action = tapZone(e.clientX - r.left, r.width, readingDirection)
    if (action === 'chrome') chrome.toggle()
    else turn(action === 'next' ? 1 : -1)
  }
  /** The episode on screen (it follows continuous reading), titled like its page: "episode · series". */
  const share = () => {
    const title = `${onScreen.title} · ${props.seriesTitle}`
    const url = canonicalUrl(`/viewer/${onScreen.id}`, props.siteUrl)
    // the sharing code loads on use (~0.7 KB); a sheet whose gesture went stale on the way falls back to the copy
    void import('../share/share.client.ts').then(({ shareLink, shareText }) =>
      shareLink({ title, text: shareText(labels.shareText, title), url }, { copied: labels.shareCopied, failed: labels.shareFailed }),
    )
  }
  const { offlineState, saveOffline } = useOffline(episodeId, slices, props.offline, {
    title: labels.offlineExpiredTitle,
    text: labels.offlineExpiredText,
  })

  /**
   * An episode's like button, at its end (each appended episode has its own). The last appended one's moves into the
   * next episode's section when that one joins: it starts again from the state its last answer left (`likeStates`).
   */
  const like = (ep: { id: number; likes: number; liked: boolean }, error: string | null = null) => {
    const state = likeStates.current.get(ep.id) ?? ep
    return (
      <Like
        key={`like-${ep.id}`}
        episodeId={ep.id}
        likes={state.likes}
        liked={state.liked}
        signedIn={signedIn}
        labels={labels}
        error={error}
        announce={setAnnouncement}
        onSettled={(settled) => likeStates.current.set(ep.id, settled)}
      />
    )
  }
  const radio = <T extends string>(name: string, value: T, current: T, label: string, onPick: (v: T) => void) => (
    <label className="viewer-choice">
      <input type="radio" name={name} value={value} checked={current === value} onChange={() => onPick(value)} />
      {label}
    </label>
  )
  // The login link carries the place: the locked episode the guest stopped at.
  const loginHref = tail ? viewerLoginHref(tail.link.id, null) : ''

  return (
    <>
      {ready && (
        <ViewerBar
          seriesId={props.seriesId}
          seriesTitle={props.seriesTitle}
          episode={onScreen}
          labels={labels}
          format={format}
          goEpisode={continuous.goEpisode}
          shortcuts={settings.shortcuts}
          helpOpen={helpOpen}
          openHelp={() => setHelpOpen(true)}
          settingsOpen={settingsOpen}
          openSettings={() => setSettingsOpen(true)}
          paper={paper}
          autoScroll={autoScroll}
          toggleAutoScroll={toggleAutoScroll}
          speed={speed}
          setSpeed={setSpeed}
          share={share}
        />
      )}
      {withTranscript && (
        <TranscriptToggle
          on={settings.transcript}
          onToggle={() => update({ transcript: !settings.transcript })}
          label={labels.transcript}
        />
      )}
      {/* Pointer conveniences only: every page turn and the chrome are also reachable by keyboard and buttons. */}
      <div
        ref={strip}
        onClick={onTap}
        onPointerDown={onPointerDown}
        onPointerUp={onPointerUp}
        className={`viewer-strip${zoom > 1 ? ' is-zoomed' : ''}${withTranscript && settings.transcript ? ' show-transcript' : ''}`}
        {...(withTranscript ? { id: TRANSCRIPT_REGION_ID, role: 'region', 'aria-label': labels.transcriptRegion } : {})}
      >
        {slices.length > 0 && (
          <SliceList
            id="viewer-content"
            listRef={list}
            lead
            slices={slices}
            label={labels.slices}
            sliceFailed={labels.sliceFailed}
            retry={labels.retry}
            shown={paper ? shown : null}
            ahead={ahead}
            className={paper ? `viewer-slices viewer-paper${double ? ' is-double' : ''}` : 'viewer-slices'}
            dir={paper ? readingDirection : undefined}
            onDoubleClick={paper ? undefined : fit}
            transcript={labels}
          />
        )}
      </div>
      <p className="sr-only" role="status" aria-live="polite">
        {announcement}
      </p>
      {ready && props.offline && (
        <p className="viewer-offline">
          <button
            type="button"
            className="btn btn-secondary"
            onClick={() => void saveOffline()}
            disabled={offlineState === 'saving' || offlineState === 'saved'}
          >
            {offlineState === 'saved' ? labels.offlineSaved : offlineState === 'saving' ? labels.offlineSaving : labels.offlineSave}
          </button>
          <span role="status">
            {offlineState === 'saved' ? labels.offlineSaved : offlineState === 'failed' ? labels.offlineFailed : ''}
          </span>
        </p>
      )}
      {paper && (
        <nav className="viewer-pager" aria-label={labels.pageNav} dir={readingDirection}>
          <button type="button" className="btn" onClick={() => turn(-1)} disabled={page === 0}>
            {labels.prevPage}
          </button>
          <p className="viewer-page-indicator" role="status" aria-live="polite">
            {format(labels.pageIndicator, indicator)}
          </p>
          <button type="button" className="btn" onClick={() => turn(1)} disabled={lastPage && !first.next}>
            {lastPage && first.next ? labels.nextEpisode : labels.nextPage}
          </button>
        </nav>
      )}
      {(!paper || lastPage) && (
        <>
          <p className="viewer-end">{labels.end}</p>
          {like(first, props.likeError)}
        </>
      )}
      {/* The page's own episode keeps its end where it is: what joins goes below it (docs/ARCHITECTURE.md "Viewer"). */}
      <nav className="viewer-nav" aria-label={labels.episodeNav} data-primary>
        {first.prev && (
          <a rel="prev" href={`/viewer/${first.prev.id}`}>
            {labels.prevEpisode}
            <span className="viewer-nav-title">{first.prev.title}</span>
          </a>
        )}
        {first.next && (
          <a rel="next" href={`/viewer/${first.next.id}`}>
            {labels.nextEpisode}
            <span className="viewer-nav-title">{first.next.title}</span>
          </a>
        )}
      </nav>
      {!first.next && props.nextUpdate && <p className="viewer-update">{props.nextUpdate}</p>}
      {!paper && first.next && (
        <div className={`viewer-chain${first.nextOpen ? ' is-reserved' : ' is-locked'}`}>
          <div
            onClick={onTap}
            className={`viewer-strip${zoom > 1 ? ' is-zoomed' : ''}${withTranscript && settings.transcript ? ' show-transcript' : ''}`}
            ref={chainStrip}
          >
            {chain.map((ep, k) => (
              <section
                key={ep.id}
                className="viewer-episode"
                data-episode={ep.id}
                aria-labelledby={`viewer-ep-${ep.id}`}
                ref={(el) => {
                  sections.current[k + 1] = el
                }}
              >
                {/* the end of the episode before it (the page's own has its end above, with its links) */}
                {k > 0 && (
                  <>
                    <p className="viewer-end">{labels.end}</p>
                    {like(chain[k - 1]!)}
                  </>
                )}
                <h2 id={`viewer-ep-${ep.id}`} className="viewer-episode-title" tabIndex={-1}>
                  {episodeLabel(
                    ep.title,
                    format(labels.episodeNumber, { no: ep.no }),
                    format(labels.episodeHeading, { no: ep.no, title: ep.title }),
                  )}
                </h2>
                {ep.slices.length > 0 ? (
                  <SliceList
                    lead={false}
                    slices={ep.slices}
                    label={labels.slices}
                    sliceFailed={labels.sliceFailed}
                    retry={labels.retry}
                    shown={null}
                    className="viewer-slices"
                    onDoubleClick={fit}
                    transcript={labels}
                  />
                ) : (
                  <div className="viewer-text">
                    {ep.text.map((p, i) => (
                      <p key={i}>{p}</p>
                    ))}
                  </div>
                )}
              </section>
            ))}
          </div>
          {chain.length > 0 && like(chain[chain.length - 1]!)}
          <div ref={sentinel} className="viewer-sentinel" aria-hidden="true" />
          {tail && (
            <NextEpisode
              key={tail.link.id}
              link={tail.link}
              seriesId={props.seriesId}
              status={tail.status}
              userId={userId}
              loginHref={loginHref}
              labels={labels}
              auto={auto}
              onAuto={changeAuto}
              onUnlocked={(message, focus) => {
                if (message) setAnnouncement(message)
                void fetchNext(tail.link, focus)
              }}
              onRetry={() => void fetchNext(tail.link, true)}
              announce={setAnnouncement}
              format={format}
            />
          )}
          {auto?.enabled && (
            <p className="viewer-auto-state">
              {pluralText(labels.autoActive, auto.budget ?? 0, { spent: auto.spent })}{' '}
              <button type="button" className="btn btn-secondary" onClick={() => void continuous.stopAuto(labels.autoDisabled)}>
                {labels.autoDisable}
              </button>
            </p>
          )}
          {chain.length > 0 && !tail && <p className="viewer-end">{labels.end}</p>}
          {chain.length > 0 && !last.next && props.nextUpdate && <p className="viewer-update">{props.nextUpdate}</p>}
        </div>
      )}
      <dialog id="viewer-settings" ref={settingsDialog} className="viewer-dialog viewer-settings" aria-labelledby="viewer-settings-title">
        {settingsOpen && (
          <>
            <h2 id="viewer-settings-title">{labels.settingsTitle}</h2>
            {isText ? (
              <>
                <fieldset>
                  <legend>{labels.font}</legend>
                  {radio('viewer-font', 'sans', settings.font, labels.fontSans, (font) => update({ font }))}
                  {radio('viewer-font', 'serif', settings.font, labels.fontSerif, (font) => update({ font }))}
                </fieldset>
                <label className="viewer-size">
                  {labels.fontSize}
                  <select value={settings.fontSize} onChange={(e) => update({ fontSize: Number(e.currentTarget.value) })}>
                    {FONT_SIZES.map((n) => (
                      <option key={n} value={n}>
                        {n} px
                      </option>
                    ))}
                  </select>
                </label>
              </>
            ) : (
              <>
                <fieldset>
                  <legend>{labels.mode}</legend>
                  {radio('viewer-mode', 'SCROLL', settings.mode, labels.modeScroll, (mode) => update({ mode }))}
                  {radio('viewer-mode', 'PAPER', settings.mode, labels.modePaper, (mode) => update({ mode }))}
                </fieldset>
                <fieldset disabled={settings.mode !== 'PAPER'}>
                  <legend>{labels.layout}</legend>
                  {radio('viewer-layout', 'single', settings.double ? 'double' : 'single', labels.single, () => update({ double: false }))}
                  {radio('viewer-layout', 'double', settings.double ? 'double' : 'single', labels.double, () => update({ double: true }))}
                </fieldset>
                {!paper && (
                  <p className="viewer-zoom" role="group" aria-label={format(labels.zoomLevel, { percent: Math.round(zoom * 100) })}>
                    <button type="button" className="btn" onClick={() => zoomBy(-1)} disabled={zoom <= 1}>
                      {labels.zoomOut}
                    </button>
                    <span aria-hidden="true">{format(labels.zoomLevel, { percent: Math.round(zoom * 100) })}</span>
                    <button type="button" className="btn" onClick={() => zoomBy(1)} disabled={zoom >= MAX_ZOOM}>
                      {labels.zoomIn}
                    </button>
                  </p>
                )}
              </>
            )}
            <label className="viewer-choice viewer-keys-setting">
              <input type="checkbox" checked={settings.shortcuts} onChange={(e) => update({ shortcuts: e.currentTarget.checked })} />
              {labels.shortcutsSetting}
            </label>
            <button type="button" className="btn" onClick={() => setSettingsOpen(false)}>
              {labels.close}
            </button>
          </>
        )}
      </dialog>
      <dialog ref={help} className="viewer-dialog viewer-help" aria-labelledby="viewer-help-title">
        {helpOpen && (
          <>
            <h2 id="viewer-help-title">{labels.helpTitle}</h2>
            <dl>
              <dt>
                {arrowKey('up', labels.keyUp)} {arrowKey('down', labels.keyDown)}
              </dt>
              <dd>{labels.helpScroll}</dd>
              <dt>
                <kbd>{labels.keySpace}</kbd> <kbd>{labels.keyPageDown}</kbd> <kbd>{labels.keyPageUp}</kbd>
              </dt>
              <dd>{labels.helpPage}</dd>
              <dt>
                {arrowKey('left', labels.keyLeft)} {arrowKey('right', labels.keyRight)}
              </dt>
              <dd>{labels.helpTurn}</dd>
              <dt>
                <kbd>n</kbd>
              </dt>
              <dd>{labels.helpNext}</dd>
              <dt>
                <kbd>p</kbd>
              </dt>
              <dd>{labels.helpPrev}</dd>
              <dt>
                <kbd>+</kbd> <kbd>−</kbd>
              </dt>
              <dd>{labels.helpZoom}</dd>
              <dt>
                <kbd>0</kbd>
              </dt>
              <dd>{labels.helpFit}</dd>
              <dt>
                <kbd>a</kbd>
              </dt>
              <dd>{labels.helpAutoScroll}</dd>
              <dt>
                <kbd>[</kbd> <kbd>]</kbd>
              </dt>
              <dd>{labels.helpSpeed}</dd>
              <dt>
                <kbd>f</kbd>
              </dt>
              <dd>{labels.helpFullscreen}</dd>
              <dt>
                <kbd>{labels.keyEscape}</kbd>
              </dt>
              <dd>{labels.helpEscape}</dd>
              <dt>
                <kbd>?</kbd>
              </dt>
              <dd>{labels.helpToggle}</dd>
            </dl>
            {!settings.shortcuts && <p>{labels.shortcutsOff}</p>}
            <button data-close type="button" className="btn" onClick={() => setHelpOpen(false)}>
              {labels.close}
            </button>
          </>
        )}
      </dialog>
    </>
  )
}
