<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="nb_NO">
<context>
    <name>AttentionPanel</name>
    <message>
        <source>Prompt</source>
        <translation>Ledetekst</translation>
    </message>
    <message>
        <source>Probe timeline</source>
        <translation>Sondetidslinje</translation>
    </message>
    <message>
        <source>The attention of a fixed probe prompt, captured at every evaluation while the run trained</source>
        <translation>Oppmerksomheten for en fast sondeledetekst, fanget ved hver evaluering mens kjøringen trente</translation>
    </message>
    <message>
        <source>Type a prompt, or take one from the validation text</source>
        <translation>Skriv en ledetekst, eller hent en fra valideringsteksten</translation>
    </message>
    <message>
        <source>Target sentence (empty = the model&apos;s own translation)</source>
        <translation>Setning på målspråket (tom = modellens egen oversettelse)</translation>
    </message>
    <message>
        <source>Translation runs: the target the decoder is fed (teacher-forced); leave it empty to see the attention of the model&apos;s greedy translation</source>
        <translation>Oversettelseskjøringer: målet dekoderen får (teacher forcing); la det stå tomt for å se oppmerksomheten i modellens grådige oversettelse</translation>
    </message>
    <message>
        <source>Encoder self</source>
        <translation>Koder, selv</translation>
    </message>
    <message>
        <source>Decoder self</source>
        <translation>Dekoder, selv</translation>
    </message>
    <message>
        <source>Cross</source>
        <translation>Kryss</translation>
    </message>
    <message>
        <source>Translation runs: the encoder&apos;s self-attention (source × source), the decoder&apos;s (target × target, causal) or cross-attention (target ↓ × source →)</source>
        <translation>Oversettelseskjøringer: koderens selvoppmerksomhet (kilde × kilde), dekoderens (mål × mål, kausal) eller kryssoppmerksomhet (mål ↓ × kilde →)</translation>
    </message>
    <message>
        <source>Show</source>
        <translation>Vis</translation>
    </message>
    <message>
        <source>Capture this prompt&apos;s attention (Ctrl+Return)</source>
        <translation>Fang denne ledetekstens oppmerksomhet (Ctrl+Return)</translation>
    </message>
    <message>
        <source>From validation text</source>
        <translation>Fra valideringstekst</translation>
    </message>
    <message>
        <source>While this run trains, refresh the view at every new checkpoint</source>
        <translation>Mens denne kjøringen trener, oppdater visningen ved hvert nye sjekkpunkt</translation>
    </message>
    <message>
        <source>ablation cost (nats/token; Head ablation page)</source>
        <translation>ablasjonskostnad (nats/token; siden Hodeablasjon)</translation>
    </message>
    <message>
        <source>Score drawn under each thumbnail and plotted against step in the timeline</source>
        <translation>Poeng tegnet under hvert miniatyrbilde og plottet mot steg i tidslinjen</translation>
    </message>
    <message>
        <source>Scrub through the evaluations of the run</source>
        <translation>Bla gjennom kjøringens evalueringer</translation>
    </message>
    <message>
        <source>no timeline</source>
        <translation>ingen tidslinje</translation>
    </message>
    <message>
        <source>Score</source>
        <translation>Poeng</translation>
    </message>
    <message>
        <source>Selected</source>
        <translation>Valgt</translation>
    </message>
    <message>
        <source>Head scores over training</source>
        <translation>Hodepoeng gjennom treningen</translation>
    </message>
    <message>
        <source>Positions</source>
        <translation>Posisjoner</translation>
    </message>
    <message>
        <source>Timeline</source>
        <translation>Tidslinje</translation>
    </message>
    <message>
        <source>Attention</source>
        <translation>Oppmerksomhet</translation>
    </message>
    <message>
        <source>Embeddings</source>
        <translation>Innbygginger</translation>
    </message>
    <message>
        <source>Logit lens</source>
        <translation>Logitlinse</translation>
    </message>
    <message>
        <source>Head ablation</source>
        <translation>Hodeablasjon</translation>
    </message>
    <message>
        <source>No run to look into: train one in the Training panel or open a run folder (…).</source>
        <translation>Ingen kjøring å se inn i: tren en i Trening-panelet eller åpne en kjøringsmappe (…).</translation>
    </message>
    <message>
        <source>Choose a run to see its probe timeline.</source>
        <translation>Velg en kjøring for å se sondetidslinjen.</translation>
    </message>
    <message>
        <source>This run has no probe timeline yet: it is written at every evaluation of runs trained by this version (the first at step 0).</source>
        <translation>Denne kjøringen har ingen sondetidslinje ennå: den skrives ved hver evaluering av kjøringer trent med denne versjonen (den første ved steg 0).</translation>
    </message>
    <message>
        <source>step %1 (%2 of %3)</source>
        <translation>steg %1 (%2 av %3)</translation>
    </message>
    <message>
        <source>layer %1 head %2 · entropy %3 · first source token %4 · same position %5</source>
        <translation>lag %1 hode %2 · entropi %3 · første kildetoken %4 · samme posisjon %5</translation>
    </message>
    <message>
        <source>layer %1 head %2 · entropy %3 · previous token %4 · first token %5</source>
        <translation>lag %1 hode %2 · entropi %3 · forrige token %4 · første token %5</translation>
    </message>
    <message>
        <source>layer %1, mean over %2 heads</source>
        <translation>lag %1, snitt over %2 hoder</translation>
    </message>
    <message>
        <source>rollout through layers 0–%1</source>
        <translation>rollout gjennom lag 0–%1</translation>
    </message>
    <message>
        <source>Rollout does not apply to cross-attention: its rows (target) and columns (source) are different sequences, so the layers cannot be multiplied through. Choose Head or Layer mean.</source>
        <translation>Rollout gjelder ikke kryssoppmerksomhet: radene (mål) og kolonnene (kilde) er ulike sekvenser, så lagene kan ikke multipliseres gjennom. Velg Hode eller Lagsnitt.</translation>
    </message>
    <message>
        <source>target ↓</source>
        <translation>mål ↓</translation>
    </message>
    <message>
        <source>source →</source>
        <translation>kilde →</translation>
    </message>
    <message>
        <source>query</source>
        <translation>spørring</translation>
    </message>
    <message>
        <source>key</source>
        <translation>nøkkel</translation>
    </message>
    <message>
        <source>%1%2 · step %3 · %4 target × %5 source tokens</source>
        <translation>%1%2 · steg %3 · %4 mål × %5 kildetokener</translation>
    </message>
    <message>
        <source>%1%2 · step %3 · %4 tokens</source>
        <translation>%1%2 · steg %3 · %4 tokener</translation>
    </message>
    <message>
        <source>Choose a run first.</source>
        <translation>Velg en kjøring først.</translation>
    </message>
    <message>
        <source>Export view</source>
        <translation>Eksporter visning</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG (*.svg)</source>
        <translation>PNG-bilde (*.png);;SVG (*.svg)</translation>
    </message>
    <message>
        <source>Cannot write %1: check the folder exists and is writable.</source>
        <translation>Kan ikke skrive %1: sjekk at mappen finnes og er skrivbar.</translation>
    </message>
    <message>
        <source>Nothing to export yet: show a prompt first.</source>
        <translation>Ingenting å eksportere ennå: vis en ledetekst først.</translation>
    </message>
    <message>
        <source>Export weights</source>
        <translation>Eksporter vekter</translation>
    </message>
    <message>
        <source>JSON (*.json);;CSV (*.csv)</source>
        <translation>JSON (*.json);;CSV (*.csv)</translation>
    </message>
    <message>
        <source>Head</source>
        <translation>Hode</translation>
    </message>
    <message>
        <source>Layer mean over heads</source>
        <translation>Lagsnitt over hoder</translation>
    </message>
    <message>
        <source>Rollout up to layer</source>
        <translation>Rollout opp til lag</translation>
    </message>
    <message>
        <source>Rollout: attention multiplied through the layers (with the residual as 0.5·I), an estimate of how much each input token reaches each position</source>
        <translation>Rollout: oppmerksomhet multiplisert gjennom lagene (med residualen som 0,5·I), et anslag på hvor mye hvert inndatatoken når hver posisjon</translation>
    </message>
    <message>
        <source>layer </source>
        <translation>lag </translation>
    </message>
    <message>
        <source>head </source>
        <translation>hode </translation>
    </message>
    <message>
        <source>Export image…</source>
        <translation>Lagre bilde…</translation>
    </message>
    <message>
        <source>Export weights…</source>
        <translation>Lagre vekter…</translation>
    </message>
    <message>
        <source>Model&apos;s translation: %1</source>
        <translation>Modellens oversettelse: %1</translation>
    </message>
    <message>
        <source>Show the attention of the text</source>
        <translation>Vis oppmerksomheten i teksten</translation>
    </message>
    <message>
        <source>The probe timeline holds cross-attention only; switch to Prompt for the others.</source>
        <translation>Sondetidslinjen har bare kryssoppmerksomhet; bytt til Ledetekst for de andre.</translation>
    </message>
    <message>
        <source>At step %1 cross-attention was still uniform: entropy %2 or more in every head (1 = every source token weighed alike), so the model did not read its source yet. Later steps of the timeline show when it learned to.</source>
        <translation>Ved steg %1 var kryssoppmerksomheten fortsatt jevn: entropi %2 eller mer i hvert hode (1 = alle kildetokener veid likt), så modellen leste ikke kilden ennå. Senere steg i tidslinjen viser når den lærte det.</translation>
    </message>
    <message>
        <source>Cross-attention is still uniform: entropy %1 or more in every head (1 = every source token weighed alike), so this model does not read its source yet and translates every input much the same. Train it for more steps (the multi30k and tatoeba presets are recipes that train it).</source>
        <translation>Kryssoppmerksomheten er fortsatt jevn: entropi %1 eller mer i hvert hode (1 = alle kildetokener veid likt), så denne modellen leser ikke kilden ennå og oversetter alle inndata omtrent likt. Tren den flere steg (forhåndsvalgene multi30k og tatoeba er oppskrifter som trener den).</translation>
    </message>
    <message>
        <source>not used by Prompt</source>
        <translation>ikke i bruk for Ledetekst</translation>
    </message>
    <message>
        <source>Follow training</source>
        <translation>Følg treningen</translation>
    </message>
    <message>
        <source>Head scores</source>
        <translation>Hodepoeng</translation>
    </message>
    <message>
        <source>Show the map over the whole page, without the prompt and the head grid (or double-click the map; Esc returns)</source>
        <translation>Vis kartet over hele siden, uten teksten og hodenettet (eller dobbeltklikk på kartet; Esc går tilbake)</translation>
    </message>
    <message>
        <source>Back from the enlarged map</source>
        <translation>Tilbake fra det forstørrede kartet</translation>
    </message>
    <message>
        <source>Hover for query, key, weight; wheel zooms, drag pans.</source>
        <translation>Hold over for spørring, nøkkel, vekt; hjulet zoomer, dra panorerer.</translation>
    </message>
</context>
<context>
    <name>AttributionStrip</name>
    <message>
        <source>gradient × input</source>
        <translation>gradient × inndata</translation>
    </message>
    <message>
        <source>attention rollout</source>
        <translation>oppmerksomhets-rollout</translation>
    </message>
    <message>
        <source>Gradient × input: how the token&apos;s logit changes with each earlier token (blue raised it, red lowered it). Attention rollout: how much of the last position&apos;s attention, through every layer, reaches each token.</source>
        <translation>Gradient × inndata: hvordan tokenets logit endres med hvert tidligere token (blått hevet den, rødt senket den). Oppmerksomhets-rollout: hvor mye av siste posisjons oppmerksomhet, gjennom hvert lag, som når hvert token.</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>Eksporter…</translation>
    </message>
    <message>
        <source>The strip as a picture (PNG/SVG) or its numbers (CSV/JSON)</source>
        <translation>Stripen som bilde (PNG/SVG) eller tallene (CSV/JSON)</translation>
    </message>
    <message>
        <source>Export the attribution</source>
        <translation>Eksporter attribusjonen</translation>
    </message>
    <message>
        <source>Where the token came from: computing…</source>
        <translation>Hvor tokenet kom fra: beregner…</translation>
    </message>
    <message>
        <source>No attribution: %1</source>
        <translation>Ingen attribusjon: %1</translation>
    </message>
    <message>
        <source>Where “%1” (p = %2 at temperature 1) came from, by %3: the most from “%4” (token %5 of the %6 before it). Hover a token for its value.</source>
        <translation>Hvor «%1» (p = %2 ved temperatur 1) kom fra, etter %3: mest fra «%4» (token %5 av de %6 før det). Hold over et token for verdien.</translation>
    </message>
</context>
<context>
    <name>AxesEditor</name>
    <message>
        <source>Config field</source>
        <translation>Konfigfelt</translation>
    </message>
    <message>
        <source>Values</source>
        <translation>Verdier</translation>
    </message>
    <message>
        <source>Add axis</source>
        <translation>Legg til akse</translation>
    </message>
    <message>
        <source>Remove axis</source>
        <translation>Fjern akse</translation>
    </message>
    <message>
        <source>1,4,8,16  or  1e-4..1e-1 log 4  or  0..0.3 lin 4</source>
        <translation>1,4,8,16  eller  1e-4..1e-1 log 4  eller  0..0.3 lin 4</translation>
    </message>
    <message>
        <source>A list of values, or a range: &apos;a..b log n&apos; (n values evenly spaced in log), &apos;a..b lin n&apos;</source>
        <translation>En liste med verdier, eller et område: &apos;a..b log n&apos; (n verdier jevnt fordelt logaritmisk), &apos;a..b lin n&apos;</translation>
    </message>
    <message>
        <source>axis %1 (%2) has no values; type a list like 1,2,4 or a range like 1e-4..1e-1 log 4</source>
        <translation>akse %1 (%2) har ingen verdier; skriv en liste som 1,2,4 eller et område som 1e-4..1e-1 log 4</translation>
    </message>
    <message>
        <source>prepared dataset folders, comma-separated (e.g. one per tokenizer)</source>
        <translation>ferdige datasettmapper, kommaseparert (f.eks. én per tokeniserer)</translation>
    </message>
    <message>
        <source>A field of the run config (the Training panel&apos;s form)</source>
        <translation>Et felt i kjøringskonfigen (skjemaet i Trening-panelet)</translation>
    </message>
</context>
<context>
    <name>Catalogue</name>
    <message>
        <source>Debian fortune cookies</source>
        <translation>Debians lykkekaker (fortune)</translation>
    </message>
    <message>
        <source>About 2.5 MB of fortune-cookie quotes and jokes from Debian&apos;s &apos;fortunes&apos; package, one record per fortune. The offline default: installed by setup, no download.</source>
        <translation>Om lag 2,5 MB sitater og vitser fra Debians «fortunes»-pakke, én post per lykkekake. Standardvalget uten nett: installert av oppsettet, ingen nedlasting.</translation>
    </message>
    <message>
        <source>Various; distributed by Debian in the fortunes package (see /usr/share/doc/fortunes/copyright)</source>
        <translation>Ulike; distribuert av Debian i fortunes-pakken (se /usr/share/doc/fortunes/copyright)</translation>
    </message>
    <message>
        <source>Tiny Shakespeare</source>
        <translation>Tiny Shakespeare</translation>
    </message>
    <message>
        <source>A subset of Shakespeare&apos;s plays (speaker names and lines), compiled by Andrej Karpathy; the classic char-rnn/nanoGPT corpus. 65 distinct characters.</source>
        <translation>Et utvalg av Shakespeares skuespill (talernavn og replikker), satt sammen av Andrej Karpathy; det klassiske char-rnn/nanoGPT-korpuset. 65 ulike tegn.</translation>
    </message>
    <message>
        <source>Public domain texts; char-rnn repository MIT</source>
        <translation>Tekster i det fri (public domain); char-rnn-depotet MIT</translation>
    </message>
    <message>
        <source>WikiText-2 (raw, validation + test)</source>
        <translation>WikiText-2 (rå, validering + test)</translation>
    </message>
    <message>
        <source>Wikipedia Good and Featured articles (Merity et al. 2016), raw text without &lt;unk&gt;. Validation and test splits as kept in pytorch/examples.</source>
        <translation>Gode og utmerkede Wikipedia-artikler (Merity et al. 2016), råtekst uten &lt;unk&gt;. Validerings- og testdelene slik pytorch/examples har dem.</translation>
    </message>
    <message>
        <source>CC BY-SA 3.0</source>
        <translation>CC BY-SA 3.0</translation>
    </message>
    <message>
        <source>TinyStories (validation sample)</source>
        <translation>TinyStories (utvalg fra valideringsdelen)</translation>
    </message>
    <message>
        <source>The first ~0.8 MB of the TinyStories validation split (Eldan and Li 2023): short simple stories for small language models.</source>
        <translation>De første ~0,8 MB av TinyStories&apos; valideringsdel (Eldan og Li 2023): korte, enkle historier for små språkmodeller.</translation>
    </message>
    <message>
        <source>CDLA-Sharing-1.0</source>
        <translation>CDLA-Sharing-1.0</translation>
    </message>
    <message>
        <source>Multi30k German-English (task 1)</source>
        <translation>Multi30k tysk-engelsk (oppgave 1)</translation>
    </message>
    <message>
        <source>Flickr30K image captions with German translations (Elliott et al. 2016), line-aligned: train 29,000 pairs, val 1,014, test2016 1,000. Files are gzip on the server; sha256 is of the unpacked file.</source>
        <translation>Bildetekster fra Flickr30K med tyske oversettelser (Elliott et al. 2016), linje for linje: trening 29 000 par, validering 1 014, test2016 1 000. Filene er gzip på serveren; sha256 gjelder den utpakkede filen.</translation>
    </message>
    <message>
        <source>Non-commercial research and education use (Multi30K README)</source>
        <translation>Ikke-kommersiell forskning og undervisning (Multi30K README)</translation>
    </message>
    <message>
        <source>Tatoeba English-Norwegian Bokmål</source>
        <translation>Tatoeba engelsk-norsk bokmål</translation>
    </message>
    <message>
        <source>6,015 sentence pairs from tatoeba.org, tab-separated: English, Bokmål, attribution. Ordered short to long.</source>
        <translation>6 015 setningspar fra tatoeba.org, tabulatorseparert: engelsk, bokmål, kreditering. Ordnet fra korte til lange.</translation>
    </message>
    <message>
        <source>CC BY 2.0 FR (keep the attribution column when redistributing)</source>
        <translation>CC BY 2.0 FR (behold krediteringskolonnen ved videredistribusjon)</translation>
    </message>
</context>
<context>
    <name>CatalogueTab</name>
    <message>
        <source>Download</source>
        <translation>Last ned</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Avbryt</translation>
    </message>
    <message>
        <source>Use for import</source>
        <translation>Bruk til import</translation>
    </message>
    <message>
        <source>Take this corpus&apos;s files, format and suggested tokenizer into Import and Tokenize</source>
        <translation>Ta dette korpusets filer, format og foreslåtte tokenisering inn i Import og Tokenisering</translation>
    </message>
    <message>
        <source>downloaded and checked</source>
        <translation>lastet ned og kontrollert</translation>
    </message>
    <message>
        <source>Downloaded into %1</source>
        <translation>Lastet ned til %1</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>mislyktes</translation>
    </message>
    <message>
        <source> (%1)</source>
        <translation> (%1)</translation>
    </message>
    <message>
        <source>%1 · %2 of %3 · %4 s left</source>
        <translation>%1 · %2 av %3 · %4 s igjen</translation>
    </message>
    <message>
        <source>local</source>
        <translation>lokal</translation>
    </message>
    <message>
        <source>checking…</source>
        <translation>sjekker…</translation>
    </message>
    <message>
        <source>Checking the catalogue&apos;s cache</source>
        <translation>Sjekker katalogens hurtiglager</translation>
    </message>
    <message>
        <source>Choose a dataset in the catalogue first.</source>
        <translation>Velg et datasett i katalogen først.</translation>
    </message>
    <message>
        <source>Downloading %1</source>
        <translation>Laster ned %1</translation>
    </message>
    <message>
        <source>Dataset</source>
        <translation>Datasett</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Størrelse</translation>
    </message>
    <message>
        <source>Licence</source>
        <translation>Lisens</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Download it first (its files are not in the cache yet)</source>
        <translation>Last den ned først (filene er ikke i hurtigbufferen ennå)</translation>
    </message>
    <message>
        <source>Take these translation pairs, their official splits, languages and suggested tokenizer into Translation pairs</source>
        <translation>Ta disse oversettelsesparene, deres offisielle delinger, språk og foreslåtte tokenisering inn i Oversettelsespar</translation>
    </message>
    <message>
        <source>Read from %1</source>
        <translation>Leses fra %1</translation>
    </message>
    <message>
        <source>Download folder: %1</source>
        <translation>Nedlastingsmappe: %1</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: %2&lt;br&gt;Licence: %3. Suggested: %4 tokenizer%5, %6 model.%7&lt;br&gt;%8</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;: %2&lt;br&gt;Lisens: %3. Foreslått: %4-tokenisering%5, %6-modell.%7&lt;br&gt;%8</translation>
    </message>
</context>
<context>
    <name>ChatTab</name>
    <message>
        <source>JSON-lines files, separated by ;</source>
        <translation>JSON-linjefiler, skilt med ;</translation>
    </message>
    <message>
        <source>One record per line: Alpaca&apos;s {&quot;instruction&quot;, &quot;input&quot;, &quot;output&quot;}, self-instruct&apos;s seed tasks {&quot;instruction&quot;, &quot;instances&quot;: [{&quot;input&quot;, &quot;output&quot;}, ...]}, or {&quot;messages&quot;: [{&quot;role&quot;, &quot;content&quot;}, ...]}</source>
        <translation>Én post per linje: Alpacas {&quot;instruction&quot;, &quot;input&quot;, &quot;output&quot;}, self-instructs frøoppgaver {&quot;instruction&quot;, &quot;instances&quot;: [{&quot;input&quot;, &quot;output&quot;}, ...]} eller {&quot;messages&quot;: [{&quot;role&quot;, &quot;content&quot;}, ...]}</translation>
    </message>
    <message>
        <source>Instruction data</source>
        <translation>Instruksjonsdata</translation>
    </message>
    <message>
        <source>train one on the conversations</source>
        <translation>tren en på samtalene</translation>
    </message>
    <message>
        <source>take a run&apos;s or a dataset&apos;s (to finetune that run)</source>
        <translation>ta en kjørings eller et datasetts (for å finjustere den kjøringen)</translation>
    </message>
    <message>
        <source>Tokenizer</source>
        <translation>Tokenisering</translation>
    </message>
    <message>
        <source>Vocabulary size, specials included (bpe, unigram, word, bytebpe); byte ignores it</source>
        <translation>Vokabularstørrelse, spesialsymboler medregnet (bpe, unigram, word, bytebpe); byte ser bort fra den</translation>
    </message>
    <message>
        <source>Kind, vocabulary</source>
        <translation>Type, vokabular</translation>
    </message>
    <message>
        <source>a run or prepared dataset folder</source>
        <translation>en mappe med en kjøring eller et klargjort datasett</translation>
    </message>
    <message>
        <source>Encode with this run&apos;s or dataset&apos;s tokenizer, then finetune that run on the data (Run → Initialise from run…): an imported GPT-2, say</source>
        <translation>Koder med denne kjøringens eller dette datasettets tokenisering, og finjuster så den kjøringen på dataene (Kjør → Initialiser fra kjøring…): en importert GPT-2, for eksempel</translation>
    </message>
    <message>
        <source>Tokenizer of</source>
        <translation>Tokenisering fra</translation>
    </message>
    <message>
        <source>none</source>
        <translation>ingen</translation>
    </message>
    <message>
        <source>A system turn put before every conversation that has none</source>
        <translation>En systemtur foran hver samtale som ikke har en</translation>
    </message>
    <message>
        <source>System turn</source>
        <translation>Systemmelding</translation>
    </message>
    <message>
        <source>Share of the conversations held out for validation</source>
        <translation>Andelen av samtalene som holdes av til validering</translation>
    </message>
    <message>
        <source>Held out: validation</source>
        <translation>Valideringsandel</translation>
    </message>
    <message>
        <source>e.g. alpaca-seed</source>
        <translation>f.eks. alpaca-seed</translation>
    </message>
    <message>
        <source>Dataset name</source>
        <translation>Datasettnavn</translation>
    </message>
    <message>
        <source>Prepare chat data</source>
        <translation>Klargjør samtaledata</translation>
    </message>
    <message>
        <source>Each conversation is rendered with the chat template (twb-chat-1: &lt;code&gt;&amp;lt;|user|&amp;gt;&lt;/code&gt;, &lt;code&gt;&amp;lt;|assistant|&amp;gt;&lt;/code&gt; and &lt;code&gt;&amp;lt;|system|&amp;gt;&lt;/code&gt; headers, each turn ended by the tokenizer&apos;s end of sequence) and the loss falls on the assistant&apos;s replies only. Train on it, or finetune a run with the same tokenizer, then talk to the model in the Sampling console&apos;s Chat tab.</source>
        <translation>Hver samtale gjengis med samtalemalen (twb-chat-1: overskriftene &lt;code&gt;&amp;lt;|user|&amp;gt;&lt;/code&gt;, &lt;code&gt;&amp;lt;|assistant|&amp;gt;&lt;/code&gt; og &lt;code&gt;&amp;lt;|system|&amp;gt;&lt;/code&gt;, hver tur avsluttet med tokeniseringens sekvensslutt), og tapet regnes bare på assistentens svar. Tren på det, eller finjuster en kjøring med samme tokenisering, og snakk så med modellen i Chat-fanen under Generering.</translation>
    </message>
    <message>
        <source>JSON lines (*.jsonl *.json);;All files (*)</source>
        <translation>JSON-linjer (*.jsonl *.json);;Alle filer (*)</translation>
    </message>
    <message>
        <source>Run or dataset whose tokenizer to use</source>
        <translation>Kjøring eller datasett hvis tokenisering skal brukes</translation>
    </message>
    <message>
        <source>choose the instruction data (JSON lines) first</source>
        <translation>velg instruksjonsdataene (JSON-linjer) først</translation>
    </message>
    <message>
        <source>choose the run or dataset whose tokenizer to use</source>
        <translation>velg kjøringen eller datasettet hvis tokenisering skal brukes</translation>
    </message>
    <message>
        <source>name the dataset first</source>
        <translation>gi datasettet et navn først</translation>
    </message>
    <message>
        <source>&lt;b&gt;Prepared&lt;/b&gt; %1 (chat, template %2, vocabulary %3)&lt;br&gt;conversations: train %4, validation %5; the longest %6 tokens&lt;br&gt;train %7 tokens, %8 of them in replies (trained); validation %9 tokens</source>
        <translation>&lt;b&gt;Klargjort&lt;/b&gt; %1 (samtaler, mal %2, vokabular %3)&lt;br&gt;samtaler: trening %4, validering %5; den lengste %6 tokens&lt;br&gt;trening %7 tokens, %8 av dem i svar (trenes); validering %9 tokens</translation>
    </message>
    <message>
        <source>warning: %1</source>
        <translation>advarsel: %1</translation>
    </message>
    <message>
        <source>Open the Training panel with a new run initialised from that run, on this dataset</source>
        <translation>Åpne Trening med en ny kjøring initialisert fra den kjøringen, på dette datasettet</translation>
    </message>
    <message>
        <source>Finetune %1 on it…</source>
        <translation>Finjuster %1 på det…</translation>
    </message>
    <message>
        <source>Render, tokenize and write the chat dataset (Ctrl+Return); as twb prepare --chat</source>
        <translation>Gjengi, tokeniser og skriv samtaledatasettet (Ctrl+Return); som twb prepare --chat</translation>
    </message>
</context>
<context>
    <name>ChatView</name>
    <message>
        <source>Optional: a system turn that opens each new conversation</source>
        <translation>Valgfritt: en systemmelding som åpner hver ny samtale</translation>
    </message>
    <message>
        <source>Message (Ctrl+Return sends)</source>
        <translation>Melding (Ctrl+Return sender)</translation>
    </message>
    <message>
        <source>Send</source>
        <translation>Send</translation>
    </message>
    <message>
        <source>Send the message (Ctrl+Return)</source>
        <translation>Send meldingen (Ctrl+Return)</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Stopp</translation>
    </message>
    <message>
        <source>Stop the reply (Esc): ends within one token</source>
        <translation>Stopp svaret (Esc): avslutter innen ett token</translation>
    </message>
    <message>
        <source>New conversation</source>
        <translation>Ny samtale</translation>
    </message>
    <message>
        <source>Start a new conversation; the earlier ones stay in the history</source>
        <translation>Start en ny samtale; de tidligere blir liggende i historikken</translation>
    </message>
    <message>
        <source>System prompt</source>
        <translation>Systemledetekst</translation>
    </message>
    <message>
        <source>conversation %1</source>
        <translation>samtale %1</translation>
    </message>
    <message>
        <source>conversation %1 · %2 messages</source>
        <translation>samtale %1 · %2 meldinger</translation>
    </message>
    <message>
        <source>no run chosen; train one first or open a run folder</source>
        <translation>ingen kjøring valgt; tren en først eller åpne en kjøringsmappe</translation>
    </message>
    <message>
        <source>replying…</source>
        <translation>svarer…</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>stoppet</translation>
    </message>
    <message>
        <source>end of turn</source>
        <translation>slutt på turen</translation>
    </message>
    <message>
        <source>length limit reached</source>
        <translation>lengdegrensen nådd</translation>
    </message>
    <message>
        <source>%1 tokens · %2 tok/s · step %3 · %4</source>
        <translation>%1 tokener · %2 tok/s · steg %3 · %4</translation>
    </message>
    <message>
        <source>System</source>
        <translation>System</translation>
    </message>
    <message>
        <source>You</source>
        <translation>Du</translation>
    </message>
    <message>
        <source>Assistant</source>
        <translation>Assistent</translation>
    </message>
    <message>
        <source>not answered</source>
        <translation>ikke besvart</translation>
    </message>
    <message>
        <source>This run cannot chat: %1. The Datasets panel&apos;s Chat data tab prepares instruction data; train on it, initialised from a run (Run menu).</source>
        <translation>Denne kjøringen kan ikke brukes til samtale:
%1.
Fanen Samtaledata i Datasett-panelet forbereder instruksjonsdata; tren på dem, initialisert fra en kjøring (Kjør-menyen).</translation>
    </message>
    <message>
        <source>This run was not finetuned on chat data, so its replies only continue the template. The Datasets panel&apos;s Chat data tab prepares instruction data; train on it, initialised from this run (Run menu).</source>
        <translation>Denne kjøringen er ikke finjustert på samtaledata, så svarene bare fortsetter malen. Fanen Samtaledata i Datasett-panelet forbereder instruksjonsdata; tren på dem, initialisert fra denne kjøringen (Kjør-menyen).</translation>
    </message>
    <message>
        <source>Chat with a run finetuned on instruction data (Datasets → Chat data, or twb prepare --chat). Each turn is written in the chat template; the reply ends at the end-of-turn token.</source>
        <translation>Chat med en kjøring finjustert på instruksjonsdata (Datasett → Samtaledata, eller twb prepare --chat). Hver tur skrives i chatmalen; svaret slutter ved tur-slutt-tokenet.</translation>
    </message>
    <message>
        <source>this is a translation run: it translates, it does not chat</source>
        <translation>dette er en oversettelseskjøring: den oversetter, den samtaler ikke</translation>
    </message>
    <message>
        <source>the %1 tokenizer of this run has no &lt;eos&gt;, which ends every turn of the chat template; chat with a run whose tokenizer has one (%2)</source>
        <translation>%1-tokeniseringen i denne kjøringen har ingen &lt;eos&gt;, som avslutter hver tur i samtalemalen; samtal med en kjøring der tokeniseringen har det (%2)</translation>
    </message>
</context>
<context>
    <name>CompareTokenizersDialog</name>
    <message>
        <source>Compare tokenizers</source>
        <translation>Sammenlign tokeniseringer</translation>
    </message>
    <message>
        <source>The text is prepared once per tokenizer (kept in the workspace&apos;s datasets), then one model per dataset is trained with the Training panel&apos;s config. The results table&apos;s &lt;b&gt;bits/char&lt;/b&gt; column ranks them fairly.</source>
        <translation>Teksten klargjøres én gang per tokenisering (lagret i arbeidsområdets datasett), deretter trenes én modell per datasett med konfigen fra Trening-panelet. Resultattabellens kolonne &lt;b&gt;bit/tegn&lt;/b&gt; rangerer dem rettferdig.</translation>
    </message>
    <message>
        <source>text files, separated by &apos;;&apos;</source>
        <translation>tekstfiler, skilt med &apos;;&apos;</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>Bla gjennom…</translation>
    </message>
    <message>
        <source>Text</source>
        <translation>Tekst</translation>
    </message>
    <message>
        <source>characters</source>
        <translation>tegn</translation>
    </message>
    <message>
        <source>Char</source>
        <translation>Tegn</translation>
    </message>
    <message>
        <source>BPE vocabulary sizes, comma-separated; empty for none</source>
        <translation>BPE-vokabularstørrelser, kommaseparert; tom for ingen</translation>
    </message>
    <message>
        <source>BPE sizes</source>
        <translation>BPE-størrelser</translation>
    </message>
    <message>
        <source>Prepare and sweep</source>
        <translation>Klargjør og sveip</translation>
    </message>
    <message>
        <source>Text to compare tokenizers on</source>
        <translation>Tekst å sammenligne tokeniseringer på</translation>
    </message>
</context>
<context>
    <name>CompareView</name>
    <message>
        <source>Columns: tick checkpoints of this run, or the best checkpoint of other runs</source>
        <translation>Kolonner: kryss av sjekkpunkter i denne kjøringen, eller beste sjekkpunkt i andre kjøringer</translation>
    </message>
    <message>
        <source>Score every generated text by another run: its perplexity under that run&apos;s best checkpoint, the prompt as context (lower = the judge finds the text more likely)</source>
        <translation>Gi hver generert tekst poeng fra en annen kjøring: perpleksiteten under den kjøringens beste sjekkpunkt, med ledeteksten som kontekst (lavere = dommeren finner teksten mer sannsynlig)</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>Sammenlign</translation>
    </message>
    <message>
        <source>Export Markdown…</source>
        <translation>Eksporter Markdown…</translation>
    </message>
    <message>
        <source>Columns</source>
        <translation>Kolonner</translation>
    </message>
    <message>
        <source>Temperatures</source>
        <translation>Temperaturer</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>(ingen)</translation>
    </message>
    <message>
        <source>step %1</source>
        <translation>steg %1</translation>
    </message>
    <message>
        <source>%1 · best</source>
        <translation>%1 · beste</translation>
    </message>
    <message>
        <source>Tick at least one checkpoint (or run) to compare.</source>
        <translation>Kryss av minst ett sjekkpunkt (eller én kjøring) å sammenligne.</translation>
    </message>
    <message>
        <source>Give at least one temperature, e.g. 0.8.</source>
        <translation>Oppgi minst én temperatur, f.eks. 0.8.</translation>
    </message>
    <message>
        <source>greedy</source>
        <translation>grådig</translation>
    </message>
    <message>
        <source>T = %1</source>
        <translation>T = %1</translation>
    </message>
    <message>
        <source>— judge: scoring…</source>
        <translation>— dommer: gir poeng…</translation>
    </message>
    <message>
        <source>— judge perplexity: %1 (%2)</source>
        <translation>— dommerens perpleksitet: %1 (%2)</translation>
    </message>
    <message>
        <source>Perplexity of this text under %1&apos;s best checkpoint, the prompt as context, scored in %2</source>
        <translation>Perpleksiteten til denne teksten under %1s beste sjekkpunkt, med ledeteksten som kontekst, beregnet på %2</translation>
    </message>
    <message>
        <source>— the judge cannot score this text: %1</source>
        <translation>— dommeren kan ikke gi denne teksten poeng: %1</translation>
    </message>
    <message>
        <source>Prompt: `%1`

</source>
        <translation>Ledetekst: `%1`

</translation>
    </message>
    <message>
        <source>Judge: each text&apos;s perplexity under `%1` (best checkpoint), the prompt as context.

</source>
        <translation>Dommer: hver teksts perpleksitet under `%1` (beste sjekkpunkt), med ledeteksten som kontekst.

</translation>
    </message>
    <message>
        <source>Every cell continues the Generate tab&apos;s prompt.</source>
        <translation>Hver celle fortsetter ledeteksten fra Generer-fanen.</translation>
    </message>
    <message>
        <source>Judge</source>
        <translation>Dommer</translation>
    </message>
    <message>
        <source>One row per temperature, separated by commas or spaces (0 = greedy)</source>
        <translation>Én rad per temperatur, skilt med semikolon, mellomrom eller komma og mellomrom (0 = grådig)</translation>
    </message>
    <message>
        <source>Temperatures: &apos;%1&apos; is not a number between 0 and 5; write e.g. %2</source>
        <translation>Temperaturer: «%1» er ikke et tall mellom 0 og 5; skriv f.eks. %2</translation>
    </message>
    <message>
        <source>Hide settings</source>
        <translation>Skjul innstillinger</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>Innstillinger</translation>
    </message>
    <message>
        <source>Fold the columns, temperatures and judge away: the texts take the width</source>
        <translation>Skjul kolonnene, temperaturene og dommeren: tekstene får bredden</translation>
    </message>
    <message>
        <source>Show the columns, temperatures and judge (to compare again)</source>
        <translation>Vis kolonnene, temperaturene og dommeren (for å sammenligne igjen)</translation>
    </message>
</context>
<context>
    <name>ConfigChoices</name>
    <message>
        <source>decoder</source>
        <translation>dekoder</translation>
    </message>
    <message>
        <source>encoder_decoder</source>
        <translation>koder-dekoder</translation>
    </message>
    <message>
        <source>learned</source>
        <translation>lært</translation>
    </message>
    <message>
        <source>sinusoidal</source>
        <translation>sinusformet</translation>
    </message>
    <message>
        <source>rotary</source>
        <translation>roterende</translation>
    </message>
    <message>
        <source>gelu</source>
        <translation>gelu</translation>
    </message>
    <message>
        <source>gelu_tanh</source>
        <translation>gelu_tanh</translation>
    </message>
    <message>
        <source>relu</source>
        <translation>relu</translation>
    </message>
    <message>
        <source>silu</source>
        <translation>silu</translation>
    </message>
    <message>
        <source>layernorm</source>
        <translation>layernorm</translation>
    </message>
    <message>
        <source>rmsnorm</source>
        <translation>rmsnorm</translation>
    </message>
    <message>
        <source>pre</source>
        <translation>før</translation>
    </message>
    <message>
        <source>post</source>
        <translation>etter</translation>
    </message>
    <message>
        <source>cosine</source>
        <translation>cosinus</translation>
    </message>
    <message>
        <source>constant</source>
        <translation>konstant</translation>
    </message>
    <message>
        <source>inverse_sqrt</source>
        <translation>invers kvadratrot</translation>
    </message>
    <message>
        <source>noam</source>
        <translation>noam</translation>
    </message>
    <message>
        <source>stream</source>
        <translation>strøm</translation>
    </message>
    <message>
        <source>documents</source>
        <translation>dokumenter</translation>
    </message>
    <message>
        <source>loss</source>
        <translation>tap</translation>
    </message>
    <message>
        <source>bleu</source>
        <translation>BLEU</translation>
    </message>
    <message>
        <source>auto</source>
        <translation>automatisk</translation>
    </message>
    <message>
        <source>float32</source>
        <translation>float32</translation>
    </message>
    <message>
        <source>bfloat16</source>
        <translation>bfloat16</translation>
    </message>
</context>
<context>
    <name>ConfigForm</name>
    <message>
        <source>Default (4x4x128, rotary)</source>
        <translation>Standard (4x4x128, rotary)</translation>
    </message>
    <message>
        <source>nanoGPT CPU recipe (4x4x128)</source>
        <translation>nanoGPT CPU-oppskrift (4x4x128)</translation>
    </message>
    <message>
        <source>Baby GPT (6x6x384, block 256)</source>
        <translation>Baby-GPT (6x6x384, blokk 256)</translation>
    </message>
    <message>
        <source>Tiny, under a minute (3x4x96)</source>
        <translation>Mini, under ett minutt (3x4x96)</translation>
    </message>
    <message>
        <source>Multi30k translation (3+3x256)</source>
        <translation>Multi30k-oversettelse (3+3x256)</translation>
    </message>
    <message>
        <source>Tatoeba translation (2+2x128)</source>
        <translation>Tatoeba-oversettelse (2+2x128)</translation>
    </message>
    <message>
        <source>Custom</source>
        <translation>Egendefinert</translation>
    </message>
    <message>
        <source>Fill the form with a known-good configuration</source>
        <translation>Fyll skjemaet med en utprøvd konfigurasjon</translation>
    </message>
    <message>
        <source>Preset</source>
        <translation>Forhåndsvalg</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modell</translation>
    </message>
    <message>
        <source>Architecture</source>
        <translation>Arkitektur</translation>
    </message>
    <message>
        <source>Optimisation</source>
        <translation>Optimering</translation>
    </message>
    <message>
        <source>Evaluation and runtime</source>
        <translation>Evaluering og kjøretid</translation>
    </message>
    <message>
        <source>, output layer %1</source>
        <translation>, utdatalag %1</translation>
    </message>
    <message>
        <source>Choose a dataset to see the parameter count</source>
        <translation>Velg et datasett for å se antall parametere</translation>
    </message>
    <message>
        <source>Decoder LM</source>
        <translation>Dekoder-LM</translation>
    </message>
    <message>
        <source>Encoder-decoder</source>
        <translation>Koder-dekoder</translation>
    </message>
    <message>
        <source>validation loss</source>
        <translation>valideringstap</translation>
    </message>
    <message>
        <source>validation BLEU</source>
        <translation>validerings-BLEU</translation>
    </message>
    <message>
        <source>%1 must be at least %2</source>
        <translation>%1 må være minst %2</translation>
    </message>
    <message>
        <source>%1 can be at most %2</source>
        <translation>%1 kan være høyst %2</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>, %1 GiB</source>
        <translation>, %1 GiB</translation>
    </message>
    <message>
        <source>cuda (the first CUDA GPU)</source>
        <translation>cuda (den første CUDA-GPU-en)</translation>
    </message>
    <message>
        <source>%1 (not on this machine)</source>
        <translation>%1 (ikke på denne maskinen)</translation>
    </message>
    <message>
        <source>none</source>
        <translation>ingen</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>Bla gjennom…</translation>
    </message>
    <message>
        <source>Choose a word-vectors file</source>
        <translation>Velg en ordvektorfil</translation>
    </message>
    <message>
        <source>Word vectors</source>
        <translation>Ordvektorer</translation>
    </message>
    <message>
        <source>Word vectors (*.vec *.txt);;All files (*)</source>
        <translation>Ordvektorer (*.vec *.txt);;Alle filer (*)</translation>
    </message>
    <message>
        <source>%1: %2 does not exist</source>
        <translation>%1: %2 finnes ikke</translation>
    </message>
    <message>
        <source>Check: %1</source>
        <translation>Sjekk: %1</translation>
    </message>
    <message>
        <source>The learning rate reaches its minimum at step %1 of %2 (Decay steps): the last %3 steps train at %4.</source>
        <translation>Læringsraten når sitt minimum ved steg %1 av %2 (Avtakingssteg): de siste %3 stegene trener med %4.</translation>
    </message>
    <message>
        <source>Automatic (GPU if usable)</source>
        <translation>Auto (GPU om mulig)</translation>
    </message>
    <message>
        <source>A CUDA GPU if one is usable, else the CPU</source>
        <translation>En CUDA-GPU om en kan brukes, ellers CPU-en</translation>
    </message>
    <message>
        <source>%1 parameters, about %2 MB while training.
By part: embeddings %3, attention %4, feed-forward %5, norms %6%7.</source>
        <translation>%1 parametere, omtrent %2 MB under trening.
Fordelt: innbygginger %3, oppmerksomhet %4, foroverlag %5, normer %6%7.</translation>
    </message>
    <message>
        <source>positive</source>
        <translation>positiv</translation>
    </message>
    <message>
        <source>above %1</source>
        <translation>over %1</translation>
    </message>
    <message>
        <source>at least %1</source>
        <translation>minst %1</translation>
    </message>
    <message>
        <source>below %1</source>
        <translation>under %1</translation>
    </message>
    <message>
        <source>at most %1</source>
        <translation>høyst %1</translation>
    </message>
    <message>
        <source>between 0 (%1) and %2</source>
        <translation>mellom 0 (%1) og %2</translation>
    </message>
    <message>
        <source>0 (%1) or positive</source>
        <translation>0 (%1) eller positiv</translation>
    </message>
    <message>
        <source>between %1 and %2</source>
        <translation>mellom %1 og %2</translation>
    </message>
    <message>
        <source> and </source>
        <translation> og </translation>
    </message>
    <message>
        <source>%1 %2 must be divisible by %3 %4 (or set %5 to choose the head width)</source>
        <translation>%1 %2 må være delelig med %3 %4 (eller angi %5 for å velge hodebredden)</translation>
    </message>
    <message>
        <source>%1 (%2) must be larger than %3 (%4)</source>
        <translation>%1 (%2) må være større enn %3 (%4)</translation>
    </message>
    <message>
        <source>%1 must be between 0 and %2</source>
        <translation>%1 må være mellom 0 og %2</translation>
    </message>
    <message>
        <source>%1 must be %2 (got %3)</source>
        <translation>%1 må være %2 (er %3)</translation>
    </message>
    <message>
        <source>the attention width n_head * head_size = %1 * %2 = %3 must be at most %4</source>
        <translation>oppmerksomhetsbredden n_head * head_size = %1 * %2 = %3 kan være høyst %4</translation>
    </message>
    <message>
        <source>rotary positions rotate pairs of channels, so they need an even head size (%1 = %2)</source>
        <translation>roterende posisjoner roterer par av kanaler, så hodestørrelsen må være et partall (%1 = %2)</translation>
    </message>
    <message>
        <source>the schedule %1 needs %2 of at least 1</source>
        <translation>planen %1 trenger %2 på minst 1</translation>
    </message>
    <message>
        <source>device must be auto, cpu, cuda or cuda:N with N a device number (got &apos;%1&apos;)</source>
        <translation>device må være auto, cpu, cuda eller cuda:N der N er et enhetsnummer (er &apos;%1&apos;)</translation>
    </message>
    <message>
        <source>%1 must be %2 or %3 (got &apos;%4&apos;)</source>
        <translation>%1 må være %2 eller %3 (er &apos;%4&apos;)</translation>
    </message>
    <message>
        <source>best_by=bleu needs model_kind=encoder_decoder (a decoder LM has no BLEU)</source>
        <translation>best_by=bleu krever model_kind=encoder_decoder (en dekoder-LM har ingen BLEU)</translation>
    </message>
    <message>
        <source>best_by=bleu needs bleu_pairs &gt; 0 (the validation pairs BLEU is measured on)</source>
        <translation>best_by=bleu krever bleu_pairs &gt; 0 (valideringsparene BLEU måles på)</translation>
    </message>
    <message>
        <source>model_kind=encoder_decoder trains on pairs; leave sequences at stream</source>
        <translation>model_kind=encoder_decoder trener på par; la sequences stå på stream</translation>
    </message>
    <message>
        <source>probe_prompt holds at most 4096 bytes (the probe uses its first 64 tokens)</source>
        <translation>probe_prompt rommer høyst 4096 byte (prøven bruker de første 64 tokenene)</translation>
    </message>
    <message>
        <source>source_vocab_size is for encoder-decoder runs (model_kind=encoder_decoder)</source>
        <translation>source_vocab_size er for koder-dekoder-kjøringer (model_kind=encoder_decoder)</translation>
    </message>
    <message>
        <source>a whole number</source>
        <translation>et heltall</translation>
    </message>
    <message>
        <source>a whole number of at least 0</source>
        <translation>et heltall på minst 0</translation>
    </message>
    <message>
        <source>a number</source>
        <translation>et tall</translation>
    </message>
    <message>
        <source>true or false</source>
        <translation>true eller false</translation>
    </message>
    <message>
        <source>a string</source>
        <translation>en tekst</translation>
    </message>
    <message>
        <source>one of %1</source>
        <translation>én av %1</translation>
    </message>
    <message>
        <source>a whole number between %1 and %2</source>
        <translation>et heltall mellom %1 og %2</translation>
    </message>
    <message>
        <source>sweep cell %1 (%2) is not a valid config: %3</source>
        <translation>sveipcelle %1 (%2) er ikke en gyldig konfigurasjon: %3</translation>
    </message>
    <message>
        <source>%1 takes %2, not %3</source>
        <translation>%1 tar %2, ikke %3</translation>
    </message>
    <message>
        <source>%1 is for decoder LMs (model_kind=decoder); this run is an encoder-decoder, which does not use it</source>
        <translation>%1 er for dekoder-LM-er (model_kind=decoder); denne kjøringen er en koder-dekoder, som ikke bruker den</translation>
    </message>
    <message>
        <source>%1 is for encoder-decoder runs (model_kind=encoder_decoder); this run is a decoder LM, which does not use it</source>
        <translation>%1 er for koder-dekoder-kjøringer (model_kind=encoder_decoder); denne kjøringen er en dekoder-LM, som ikke bruker den</translation>
    </message>
    <message>
        <source>Training ends at step %1 of the cosine&apos;s %2 (Decay steps): the learning rate is still %3 there, not its minimum %4.</source>
        <translation>Treningen slutter ved steg %1 av cosinusens %2 (Avtakingssteg): læringsraten er fortsatt %3 der, ikke minimum %4.</translation>
    </message>
    <message>
        <source>Automatic</source>
        <translation>Automatisk</translation>
    </message>
</context>
<context>
    <name>ConfigOptions</name>
    <message>
        <source>Model kind</source>
        <translation>Modelltype</translation>
    </message>
    <message>
        <source>decoder: a GPT that continues text (a token-stream dataset); encoder_decoder: the original transformer for translation (a parallel dataset of pairs)</source>
        <translation>decoder: en GPT som fortsetter tekst (et tokenstrøm-datasett); encoder_decoder: den opprinnelige transformeren for oversettelse (et parallelt datasett med par)</translation>
    </message>
    <message>
        <source>Layers</source>
        <translation>Lag</translation>
    </message>
    <message>
        <source>Transformer blocks</source>
        <translation>Transformerblokker</translation>
    </message>
    <message>
        <source>Encoder layers</source>
        <translation>Koderlag</translation>
    </message>
    <message>
        <source>Encoder blocks</source>
        <translation>Koderblokker</translation>
    </message>
    <message>
        <source>as n_layer</source>
        <translation>som n_layer</translation>
    </message>
    <message>
        <source>Decoder layers</source>
        <translation>Dekoderlag</translation>
    </message>
    <message>
        <source>Decoder blocks, each with self- and cross-attention (block_size = max tokens per side)</source>
        <translation>Dekoderblokker, hver med selv- og kryssoppmerksomhet (block_size = maks tokener per side)</translation>
    </message>
    <message>
        <source>Heads</source>
        <translation>Hoder</translation>
    </message>
    <message>
        <source>Attention heads per block; n_embd must divide by it unless head_size is set</source>
        <translation>Oppmerksomhetshoder per blokk; n_embd må være delelig med dette med mindre head_size er satt</translation>
    </message>
    <message>
        <source>Width</source>
        <translation>Bredde</translation>
    </message>
    <message>
        <source>Model width: the embedding channels</source>
        <translation>Modellbredde: innbyggingskanalene</translation>
    </message>
    <message>
        <source>Context</source>
        <translation>Kontekst</translation>
    </message>
    <message>
        <source>Context length in tokens</source>
        <translation>Kontekstlengde i tokener</translation>
    </message>
    <message>
        <source>Dropout</source>
        <translation>Dropout</translation>
    </message>
    <message>
        <source>Dropout on embeddings, attention and residuals, e.g. 0.1</source>
        <translation>Dropout på innbygginger, oppmerksomhet og residualer, f.eks. 0.1</translation>
    </message>
    <message>
        <source>Positions</source>
        <translation>Posisjoner</translation>
    </message>
    <message>
        <source>learned table, fixed sinusoids (Vaswani et al.) or rotary (RoPE on queries and keys; the lowest val loss in bench/)</source>
        <translation>lært tabell, faste sinuskurver (Vaswani m.fl.) eller rotary (RoPE på spørringer og nøkler; lavest valideringstap i bench/)</translation>
    </message>
    <message>
        <source>Bias</source>
        <translation>Bias</translation>
    </message>
    <message>
        <source>Biases in the linear layers and LayerNorms</source>
        <translation>Bias i de lineære lagene og LayerNorm-ene</translation>
    </message>
    <message>
        <source>Tie embeddings</source>
        <translation>Delte innbygginger</translation>
    </message>
    <message>
        <source>The output layer shares the token embedding matrix</source>
        <translation>Utdatalaget deler tokeninnbyggingsmatrisen</translation>
    </message>
    <message>
        <source>Feed-forward width</source>
        <translation>Foroverbredde</translation>
    </message>
    <message>
        <source>Hidden width of each block&apos;s MLP</source>
        <translation>Skjult bredde i hver blokks MLP</translation>
    </message>
    <message>
        <source>4 * n_embd</source>
        <translation>4 * n_embd</translation>
    </message>
    <message>
        <source>Activation</source>
        <translation>Aktivering</translation>
    </message>
    <message>
        <source>Feed-forward activation: gelu (exact), gelu_tanh (its tanh approximation, GPT-2&apos;s gelu_new), relu or silu (x * sigmoid(x), Marian&apos;s swish)</source>
        <translation>Aktivering i foroverlaget: gelu (eksakt), gelu_tanh (tanh-tilnærmingen, GPT-2s gelu_new), relu eller silu (x * sigmoid(x), Marians swish)</translation>
    </message>
    <message>
        <source>Head size</source>
        <translation>Hodestørrelse</translation>
    </message>
    <message>
        <source>Channels per attention head; otherwise attention projects the width to n_head * head_size and back</source>
        <translation>Kanaler per oppmerksomhetshode; ellers projiserer oppmerksomheten bredden til n_head * head_size og tilbake</translation>
    </message>
    <message>
        <source>n_embd / n_head</source>
        <translation>n_embd / n_head</translation>
    </message>
    <message>
        <source>Norm</source>
        <translation>Norm</translation>
    </message>
    <message>
        <source>layernorm: (x - mean) / std * weight + bias; rmsnorm: x / sqrt(mean(x^2) + eps) * weight, no bias</source>
        <translation>layernorm: (x - mean) / std * weight + bias; rmsnorm: x / sqrt(mean(x^2) + eps) * weight, uten bias</translation>
    </message>
    <message>
        <source>Norm position</source>
        <translation>Normposisjon</translation>
    </message>
    <message>
        <source>pre: x + f(norm(x)) with a final norm (GPT-2); post: norm(x + f(x)), the original transformer, no final norm</source>
        <translation>pre: x + f(norm(x)) med en siste norm (GPT-2); post: norm(x + f(x)), den opprinnelige transformeren, uten siste norm</translation>
    </message>
    <message>
        <source>Norm epsilon</source>
        <translation>Norm-epsilon</translation>
    </message>
    <message>
        <source>Added to the variance (or mean square) in every norm, e.g. 1e-5</source>
        <translation>Legges til variansen (eller middelkvadratet) i hver norm, f.eks. 1e-5</translation>
    </message>
    <message>
        <source>Q/K norm</source>
        <translation>Q/K-norm</translation>
    </message>
    <message>
        <source>A norm of the kind `norm` over each head&apos;s queries and keys before the dot product (OLMo, Gemma): bounded attention logits; the bf16 fast decoder and GPT-2/GGUF export do not take it</source>
        <translation>En norm av typen `norm` over hvert hodes spørringer og nøkler før prikkproduktet (OLMo, Gemma): begrensede oppmerksomhetslogits; den raske bf16-dekoderen og GPT-2/GGUF-eksport støtter det ikke</translation>
    </message>
    <message>
        <source>Sinusoid halves</source>
        <translation>Sinushalvdeler</translation>
    </message>
    <message>
        <source>position=sinusoidal: sines in the first half of the channels and cosines in the second (fairseq, Marian) instead of interleaved (sin, cos, sin, ...); the same frequencies</source>
        <translation>position=sinusoidal: sinuser i første halvdel av kanalene og cosinuser i den andre halvdelen (fairseq, Marian) i stedet for flettet (sin, cos, sin, ...); de samme frekvensene</translation>
    </message>
    <message>
        <source>Scale embeddings</source>
        <translation>Skaler innbygginger</translation>
    </message>
    <message>
        <source>Token embeddings multiplied by sqrt(n_embd) before the positions are added (Vaswani et al., Marian); false: as they are</source>
        <translation>Tokeninnbygginger multiplisert med sqrt(n_embd) før posisjonene legges til (Vaswani m.fl., Marian); false: som de er</translation>
    </message>
    <message>
        <source>Logits bias</source>
        <translation>Logit-bias</translation>
    </message>
    <message>
        <source>A learned bias over the vocabulary added to the output logits (Marian&apos;s final_logits_bias)</source>
        <translation>En lært bias over vokabularet lagt til utdatalogitene (Marians final_logits_bias)</translation>
    </message>
    <message>
        <source>Freeze embeddings</source>
        <translation>Frys innbygginger</translation>
    </message>
    <message>
        <source>Embeddings from</source>
        <translation>Innbygginger fra</translation>
    </message>
    <message>
        <source>Token embedding rows from a word-vectors text file (word2vec/GloVe/fastText .vec, n_embd values per word, matched by token text) or from a run/checkpoint with the same tokenizer and width; tokens the file lacks keep their random start. &quot;&quot; = none</source>
        <translation>Rader i tokeninnbyggingen fra en tekstfil med ordvektorer (word2vec/GloVe/fastText .vec, n_embd verdier per ord, matchet på tokentekst) eller fra en kjøring/et sjekkpunkt med samme tokenisering og bredde; tokener filen mangler beholder sin tilfeldige start. &quot;&quot; = ingen</translation>
    </message>
    <message>
        <source>Batch size</source>
        <translation>Batchstørrelse</translation>
    </message>
    <message>
        <source>Sequences per micro-batch</source>
        <translation>Sekvenser per mikrobatch</translation>
    </message>
    <message>
        <source>Tokens per batch</source>
        <translation>Tokener per batch</translation>
    </message>
    <message>
        <source>Token budget of a micro-batch of pairs, source + target, padding included; pairs of similar length go together</source>
        <translation>Tokenbudsjett for en mikrobatch av par, kilde + mål, utfylling medregnet; par med lik lengde går sammen</translation>
    </message>
    <message>
        <source>batch_size * block_size</source>
        <translation>batch_size * block_size</translation>
    </message>
    <message>
        <source>Accumulation</source>
        <translation>Akkumulering</translation>
    </message>
    <message>
        <source>Micro-batches per optimiser step</source>
        <translation>Mikrobatcher per optimeringssteg</translation>
    </message>
    <message>
        <source>Learning rate</source>
        <translation>Læringsrate</translation>
    </message>
    <message>
        <source>Peak learning rate (3e-3 beat 1e-3, 2e-3 and 5e-3 for 4x4x128 in bench/); noam: the scale</source>
        <translation>Høyeste læringsrate (3e-3 slo 1e-3, 2e-3 og 5e-3 for 4x4x128 i bench/); noam: skalaen</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>Steg</translation>
    </message>
    <message>
        <source>Optimiser steps</source>
        <translation>Optimeringssteg</translation>
    </message>
    <message>
        <source>Epochs</source>
        <translation>Epoker</translation>
    </message>
    <message>
        <source>Passes over the training pairs; training stops at max_iters or after max_epochs, whichever comes first</source>
        <translation>Gjennomganger av treningsparene; treningen stopper ved max_iters eller etter max_epochs, det som kommer først</translation>
    </message>
    <message>
        <source>up to max_iters</source>
        <translation>opptil max_iters</translation>
    </message>
    <message>
        <source>Schedule</source>
        <translation>Plan</translation>
    </message>
    <message>
        <source>constant; cosine: warmup then cosine to min_lr; inverse_sqrt: Vaswani&apos;s schedule peaking at learning_rate; noam: the paper&apos;s exactly, learning_rate * n_embd^-0.5 * min(s^-0.5, s * warmup_iters^-1.5)</source>
        <translation>constant; cosine: oppvarming og så cosinus ned til min_lr; inverse_sqrt: Vaswanis plan med topp ved learning_rate; noam: nøyaktig som i artikkelen, learning_rate * n_embd^-0.5 * min(s^-0.5, s * warmup_iters^-1.5)</translation>
    </message>
    <message>
        <source>Warmup</source>
        <translation>Oppvarming</translation>
    </message>
    <message>
        <source>Linear warmup steps</source>
        <translation>Steg med lineær oppvarming</translation>
    </message>
    <message>
        <source>Decay steps</source>
        <translation>Avtakingssteg</translation>
    </message>
    <message>
        <source>The cosine schedule reaches min_lr here</source>
        <translation>Cosinusplanen når min_lr her</translation>
    </message>
    <message>
        <source>Min LR</source>
        <translation>Min. LR</translation>
    </message>
    <message>
        <source>Floor of the cosine schedule (learning_rate / 10), at most learning_rate</source>
        <translation>Gulvet i cosinusplanen (learning_rate / 10), høyst learning_rate</translation>
    </message>
    <message>
        <source>Weight decay</source>
        <translation>Vektforfall</translation>
    </message>
    <message>
        <source>AdamW decay on the weight matrices</source>
        <translation>AdamW-forfall på vektmatrisene</translation>
    </message>
    <message>
        <source>Adam β2</source>
        <translation>Adam β2</translation>
    </message>
    <message>
        <source>Adam&apos;s second-moment decay</source>
        <translation>Adams forfall for andre moment</translation>
    </message>
    <message>
        <source>Grad clip</source>
        <translation>Gradientklipping</translation>
    </message>
    <message>
        <source>Max global gradient norm</source>
        <translation>Maks global gradientnorm</translation>
    </message>
    <message>
        <source>off</source>
        <translation>av</translation>
    </message>
    <message>
        <source>Label smoothing</source>
        <translation>Etikettutjevning</translation>
    </message>
    <message>
        <source>Target probability spread over the vocabulary, e.g. 0.1</source>
        <translation>Målsannsynlighet fordelt over vokabularet, f.eks. 0.1</translation>
    </message>
    <message>
        <source>Sequences</source>
        <translation>Sekvenser</translation>
    </message>
    <message>
        <source>stream: random windows of the token stream (nanoGPT); documents: one &lt;bos&gt; ... &lt;eos&gt; document per row, padded (needs a dataset prepared with --documents)</source>
        <translation>stream: tilfeldige vinduer av tokenstrømmen (nanoGPT); documents: ett &lt;bos&gt; ... &lt;eos&gt;-dokument per rad, utfylt (krever et datasett klargjort med --documents)</translation>
    </message>
    <message>
        <source>Eval every</source>
        <translation>Evaluer hvert</translation>
    </message>
    <message>
        <source>Steps between evaluations and checkpoints</source>
        <translation>Steg mellom evalueringer og sjekkpunkter</translation>
    </message>
    <message>
        <source>Eval batches</source>
        <translation>Evalueringsbatcher</translation>
    </message>
    <message>
        <source>Batches per evaluation split</source>
        <translation>Batcher per evalueringsdel</translation>
    </message>
    <message>
        <source>Report every</source>
        <translation>Rapporter hvert</translation>
    </message>
    <message>
        <source>Steps between progress reports</source>
        <translation>Steg mellom fremdriftsrapporter</translation>
    </message>
    <message>
        <source>Keep checkpoints</source>
        <translation>Behold sjekkpunkter</translation>
    </message>
    <message>
        <source>Most recent checkpoints kept on disk (the best one is always kept as well)</source>
        <translation>Nyeste sjekkpunkter beholdt på disk (det beste beholdes alltid i tillegg)</translation>
    </message>
    <message>
        <source>TensorBoard files</source>
        <translation>TensorBoard-filer</translation>
    </message>
    <message>
        <source>Also write the curves (every metrics.csv number) and the config as TensorBoard event files in RUN/tb/, as training goes; false: none (twb export-metrics writes them later)</source>
        <translation>Skriv også kurvene (hvert tall i metrics.csv) og konfigen som TensorBoard-hendelsesfiler i RUN/tb/, underveis i treningen; false: ingen (twb export-metrics skriver dem senere)</translation>
    </message>
    <message>
        <source>BLEU pairs</source>
        <translation>BLEU-par</translation>
    </message>
    <message>
        <source>Validation BLEU at each evaluation, greedy, over the first N validation pairs</source>
        <translation>Validerings-BLEU ved hver evaluering, grådig, over de første N valideringsparene</translation>
    </message>
    <message>
        <source>Keep best by</source>
        <translation>Beste etter</translation>
    </message>
    <message>
        <source>The checkpoint kept as the best: lowest validation loss, or highest validation BLEU</source>
        <translation>Sjekkpunktet som beholdes som det beste: lavest valideringstap, eller høyest validerings-BLEU</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>Frø</translation>
    </message>
    <message>
        <source>Random seed</source>
        <translation>Tilfeldig frø</translation>
    </message>
    <message>
        <source>Threads</source>
        <translation>Tråder</translation>
    </message>
    <message>
        <source>Intra-op CPU threads</source>
        <translation>CPU-tråder innen hver operasjon</translation>
    </message>
    <message>
        <source>all cores</source>
        <translation>alle kjerner</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>Enhet</translation>
    </message>
    <message>
        <source>auto (a CUDA GPU where this build can use one, else the CPU), cpu, cuda or cuda:N</source>
        <translation>auto (en CUDA-GPU der denne bygningen kan bruke en, ellers CPU-en), cpu, cuda eller cuda:N</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>Presisjon</translation>
    </message>
    <message>
        <source>auto: bf16 mixed precision where the hardware does bf16 natively; float32; bfloat16: autocast matmuls with float32 master weights (about 2x faster on CPUs with AVX512-BF16)</source>
        <translation>auto: bf16 blandet presisjon der maskinvaren kan bf16 direkte; float32; bfloat16: autocast-matrisemultiplikasjoner med float32-hovedvekter (omtrent 2x raskere på CPU-er med AVX512-BF16)</translation>
    </message>
    <message>
        <source>The token embedding is not trained; with tie_embeddings the output layer is not trained either</source>
        <translation>Tokeninnbyggingen trenes ikke; med tie_embeddings trenes heller ikke utdatalaget</translation>
    </message>
</context>
<context>
    <name>ConfirmDelete</name>
    <message>
        <source>This cannot be undone.</source>
        <translation>Dette kan ikke angres.</translation>
    </message>
</context>
<context>
    <name>DatasetsPanel</name>
    <message>
        <source>Import &amp;&amp; clean</source>
        <translation>Importer og rens</translation>
    </message>
    <message>
        <source>Tokenize &amp;&amp; prepare</source>
        <translation>Tokeniser og klargjør</translation>
    </message>
    <message>
        <source>Catalogue</source>
        <translation>Katalog</translation>
    </message>
    <message>
        <source>Synthetic tasks</source>
        <translation>Syntetiske oppgaver</translation>
    </message>
    <message>
        <source>Translation pairs</source>
        <translation>Oversettelsespar</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Avbryt</translation>
    </message>
    <message>
        <source>Wrote %1 examples to %2</source>
        <translation>Skrev %1 eksempler til %2</translation>
    </message>
    <message>
        <source>Add text files first (Import tab, or drop them on the panel).</source>
        <translation>Legg til tekstfiler først (fanen «Importer og rens», eller slipp dem på panelet).</translation>
    </message>
    <message>
        <source>Replace dataset</source>
        <translation>Erstatt datasett</translation>
    </message>
    <message>
        <source>A dataset named %1 exists. Replace it?</source>
        <translation>Et datasett med navnet %1 finnes. Erstatte det?</translation>
    </message>
    <message>
        <source>%p% · %1 s left</source>
        <translation>%p% · %1 s igjen</translation>
    </message>
    <message>
        <source>Tokenizing</source>
        <translation>Tokeniserer</translation>
    </message>
    <message>
        <source>Tokenizing with B…</source>
        <translation>Tokeniserer med B…</translation>
    </message>
    <message>
        <source>Tokenizing…</source>
        <translation>Tokeniserer…</translation>
    </message>
    <message>
        <source>Tokenizing cancelled; nothing was written.</source>
        <translation>Tokenisering avbrutt; ingenting ble skrevet.</translation>
    </message>
    <message>
        <source>Choose a prepared bytebpe dataset or a run to show its merges.</source>
        <translation>Velg et klargjort bytebpe-datasett eller en kjøring for å vise sammenslåingene.</translation>
    </message>
    <message>
        <source>Reading merges</source>
        <translation>Leser sammenslåinger</translation>
    </message>
    <message>
        <source>Reading merges…</source>
        <translation>Leser sammenslåinger…</translation>
    </message>
    <message>
        <source>Preparing %1</source>
        <translation>Klargjør %1</translation>
    </message>
    <message>
        <source>Preparing…</source>
        <translation>Klargjør…</translation>
    </message>
    <message>
        <source>Preparing cancelled; nothing was written.</source>
        <translation>Klargjøring avbrutt; ingenting ble skrevet.</translation>
    </message>
    <message>
        <source>Preparing pairs %1</source>
        <translation>Klargjør par %1</translation>
    </message>
    <message>
        <source>Preparing pairs…</source>
        <translation>Klargjør par…</translation>
    </message>
    <message>
        <source>Prepared %1</source>
        <translation>Klargjorde %1</translation>
    </message>
    <message>
        <source>Chat data</source>
        <translation>Samtaledata</translation>
    </message>
    <message>
        <source>Preparing chat data %1</source>
        <translation>Klargjør samtaledata %1</translation>
    </message>
    <message>
        <source>Preparing chat data…</source>
        <translation>Klargjør samtaledata…</translation>
    </message>
    <message>
        <source>Wrote %1 instructions to %2</source>
        <translation>Skrev %1 instruksjoner til %2</translation>
    </message>
    <message>
        <source>Nothing to tokenize or prepare until the sources read as text: %1</source>
        <translation>Ingenting å tokenisere eller forberede før kildene kan leses som tekst: %1</translation>
    </message>
    <message>
        <source>Prepared %1, with a warning: %2</source>
        <translation>Klargjorde %1, med en advarsel: %2</translation>
    </message>
    <message>
        <source>Import</source>
        <translation>Importer</translation>
    </message>
    <message>
        <source>Tokenize</source>
        <translation>Tokeniser</translation>
    </message>
    <message>
        <source>Synthetic</source>
        <translation>Syntetiske</translation>
    </message>
    <message>
        <source>Pairs</source>
        <translation>Par</translation>
    </message>
    <message>
        <source>Chat</source>
        <translation>Samtale</translation>
    </message>
    <message>
        <source>Replace</source>
        <translation>Erstatt</translation>
    </message>
    <message>
        <source>Tokenizing with A and B…</source>
        <translation>Tokeniserer med A og B…</translation>
    </message>
</context>
<context>
    <name>DecodingForm</name>
    <message>
        <source>Decoding</source>
        <translation>Dekoding</translation>
    </message>
    <message>
        <source>0 = greedy (always the most probable token); higher = more varied, less coherent</source>
        <translation>0 = grådig (alltid det mest sannsynlige tokenet); høyere = mer variert, mindre sammenhengende</translation>
    </message>
    <message>
        <source>Sample only among the k most probable tokens (0 = off)</source>
        <translation>Trekk bare blant de k mest sannsynlige tokenene (0 = av)</translation>
    </message>
    <message>
        <source>off</source>
        <translation>av</translation>
    </message>
    <message>
        <source>Nucleus sampling: the smallest set of tokens whose probabilities reach p (1 = off)</source>
        <translation>Nukleus-trekking: den minste mengden tokener med samlet sannsynlighet p (1 = av)</translation>
    </message>
    <message>
        <source>&gt; 1 makes tokens already in the text less likely</source>
        <translation>&gt; 1 gjør tokener som alt står i teksten mindre sannsynlige</translation>
    </message>
    <message>
        <source>Never repeat an n-gram of this many tokens (twb sample --no-repeat-ngram); 0 = off</source>
        <translation>Gjenta aldri et n-gram med så mange tokener (twb sample --no-repeat-ngram); 0 = av</translation>
    </message>
    <message>
        <source>e.g. \n\n | THE END</source>
        <translation>f.eks. \n\n | SLUTT</translation>
    </message>
    <message>
        <source>Generation ends when the text produces one of these strings (twb sample --stop); separate several with |, write a newline as \n</source>
        <translation>Genereringen slutter når teksten gir en av disse strengene (twb sample --stop); skill flere med |, skriv linjeskift som \n</translation>
    </message>
    <message>
        <source>&gt; 1 = beam search: deterministic, keeps this many candidate continuations</source>
        <translation>&gt; 1 = strålesøk: deterministisk, beholder så mange kandidatfortsettelser</translation>
    </message>
    <message>
        <source>random</source>
        <translation>tilfeldig</translation>
    </message>
    <message>
        <source>KV cache</source>
        <translation>KV-hurtiglager</translation>
    </message>
    <message>
        <source>Reuse keys and values of earlier tokens: same text, many times faster</source>
        <translation>Gjenbruk nøkler og verdier fra tidligere tokener: samme tekst, mange ganger raskere</translation>
    </message>
    <message>
        <source>Weights one sample streams per token on the CPU (twb sample --decode-weights): auto = bfloat16 where the CPU has AVX2, else float32; bfloat16 halves the bytes read and runs the fast decoder; float32 gives libtorch&apos;s exact float32 tokens. Batches, beams and GPUs always use libtorch.</source>
        <translation>Vekter én prøve strømmer per token på CPU-en (twb sample --decode-weights): auto = bfloat16 der CPU-en har AVX2, ellers float32; bfloat16 halverer bytene som leses og kjører den raske dekoderen; float32 gir libtorchs eksakte float32-tokener. Batcher, stråler og GPU-er bruker alltid libtorch.</translation>
    </message>
    <message>
        <source>Preset</source>
        <translation>Forhåndsvalg</translation>
    </message>
    <message>
        <source>Temperature</source>
        <translation>Temperatur</translation>
    </message>
    <message>
        <source>Top-k</source>
        <translation>Top-k</translation>
    </message>
    <message>
        <source>Top-p</source>
        <translation>Top-p</translation>
    </message>
    <message>
        <source>Max new tokens</source>
        <translation>Maks nye tokener</translation>
    </message>
    <message>
        <source>Repetition penalty</source>
        <translation>Gjentakelsesstraff</translation>
    </message>
    <message>
        <source>No repeat n-gram</source>
        <translation>Ikke gjenta n-gram</translation>
    </message>
    <message>
        <source>Stop at</source>
        <translation>Stopp ved</translation>
    </message>
    <message>
        <source>Beam width</source>
        <translation>Strålebredde</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>Frø</translation>
    </message>
    <message>
        <source>Samples</source>
        <translation>Antall prøver</translation>
    </message>
    <message>
        <source>Decode weights</source>
        <translation>Dekodingsvekter</translation>
    </message>
    <message>
        <source>Custom</source>
        <translation>Egendefinert</translation>
    </message>
    <message>
        <source>Precise (greedy)</source>
        <translation>Presis (grådig)</translation>
    </message>
    <message>
        <source>Balanced</source>
        <translation>Balansert</translation>
    </message>
    <message>
        <source>Creative</source>
        <translation>Kreativ</translation>
    </message>
    <message>
        <source>Default (as twb sample)</source>
        <translation>Standard (som twb sample)</translation>
    </message>
</context>
<context>
    <name>Downloader</name>
    <message>
        <source>&apos;%1&apos; has nothing to download: it is read from %2</source>
        <translation>&apos;%1&apos; har ingenting å laste ned: den leses fra %2</translation>
    </message>
    <message>
        <source>Cannot create %1: check the workspace folder is writable.</source>
        <translation>Kan ikke opprette %1: sjekk at arbeidsområdemappen er skrivbar.</translation>
    </message>
    <message>
        <source>Cannot write %1: check the workspace folder is writable.</source>
        <translation>Kan ikke skrive %1: sjekk at arbeidsområdemappen er skrivbar.</translation>
    </message>
    <message>
        <source>Download cancelled. %1 bytes of %2 are kept; Download again resumes from there.</source>
        <translation>Nedlasting avbrutt. %1 av %2 byte er beholdt; Last ned på nytt fortsetter derfra.</translation>
    </message>
    <message>
        <source>The server answered HTTP %1 for %2. The catalogue&apos;s address may be out of date; fetch the file by hand and put it in %3.</source>
        <translation>Tjeneren svarte HTTP %1 for %2. Katalogens adresse kan være utdatert; hent filen for hånd og legg den i %3.</translation>
    </message>
    <message>
        <source>Could not reach %1 (%2): you may be offline. Check the connection and try again, or copy %3 into %4 by hand.</source>
        <translation>Fikk ikke kontakt med %1 (%2): du er kanskje frakoblet. Sjekk forbindelsen og prøv igjen, eller kopier %3 til %4 for hånd.</translation>
    </message>
    <message>
        <source>The download of %1 was interrupted (%2). %3 bytes are kept; Download again resumes.</source>
        <translation>Nedlastingen av %1 ble avbrutt (%2). %3 byte er beholdt; Last ned på nytt fortsetter.</translation>
    </message>
    <message>
        <source>%1 arrived broken: %2</source>
        <translation>%1 kom frem ødelagt: %2</translation>
    </message>
    <message>
        <source>Checksum mismatch for %1: expected sha256 %2, got %3. The download was corrupted or the file on the server changed; the bad file was deleted. Try again.</source>
        <translation>Kontrollsummen stemmer ikke for %1: ventet sha256 %2, fikk %3. Nedlastingen ble ødelagt eller filen på tjeneren er endret; den dårlige filen ble slettet. Prøv igjen.</translation>
    </message>
</context>
<context>
    <name>EmbeddingMapPlot</name>
    <message>
        <source>first principal component</source>
        <translation>første hovedkomponent</translation>
    </message>
    <message>
        <source>second principal component</source>
        <translation>andre hovedkomponent</translation>
    </message>
    <message>
        <source>first principal component (%1% of the variance)</source>
        <translation>første hovedkomponent (%1% av variansen)</translation>
    </message>
    <message>
        <source>second principal component (%1%)</source>
        <translation>andre hovedkomponent (%1%)</translation>
    </message>
    <message>
        <source>%1  (id %2</source>
        <translation>%1  (id %2</translation>
    </message>
    <message>
        <source>, %1 occurrences, rank %2</source>
        <translation>, %1 forekomster, rang %2</translation>
    </message>
    <message>
        <source>)  at (%1, %2)</source>
        <translation>)  ved (%1; %2)</translation>
    </message>
    <message>
        <source>component 2</source>
        <translation>komponent 2</translation>
    </message>
    <message>
        <source>component 2 (%1%)</source>
        <translation>komponent 2 (%1%)</translation>
    </message>
</context>
<context>
    <name>EmbeddingsPanel</name>
    <message>
        <source>A word or token (several tokens: their mean)</source>
        <translation>Et ord eller token (flere tokener: snittet av dem)</translation>
    </message>
    <message>
        <source>Return finds its nearest tokens</source>
        <translation>Retur finner de nærmeste tokenene</translation>
    </message>
    <message>
        <source>k = </source>
        <translation>k = </translation>
    </message>
    <message>
        <source>How many neighbours to list</source>
        <translation>Hvor mange naboer som listes</translation>
    </message>
    <message>
        <source>Nearest</source>
        <translation>Nærmeste</translation>
    </message>
    <message>
        <source>Tokens whose embedding is closest by cosine similarity (Return)</source>
        <translation>Tokener med nærmest innbygging etter cosinuslikhet (Retur)</translation>
    </message>
    <message>
        <source>token</source>
        <translation>token</translation>
    </message>
    <message>
        <source>id</source>
        <translation>id</translation>
    </message>
    <message>
        <source>cosine similarity</source>
        <translation>cosinuslikhet</translation>
    </message>
    <message>
        <source>Double-click a token to look up its own neighbours</source>
        <translation>Dobbeltklikk et token for å slå opp dets egne naboer</translation>
    </message>
    <message>
        <source>first word or text</source>
        <translation>første ord eller tekst</translation>
    </message>
    <message>
        <source>second word or text</source>
        <translation>andre ord eller tekst</translation>
    </message>
    <message>
        <source>Similarity</source>
        <translation>Likhet</translation>
    </message>
    <message>
        <source>Cosine similarity of the two texts&apos; mean embeddings (Return)</source>
        <translation>Cosinuslikhet mellom de to tekstenes snittinnbygginger (Retur)</translation>
    </message>
    <message>
        <source>–</source>
        <translation>–</translation>
    </message>
    <message>
        <source>top </source>
        <translation>topp </translation>
    </message>
    <message>
        <source> tokens</source>
        <translation> tokener</translation>
    </message>
    <message>
        <source>How many of the most frequent tokens to map</source>
        <translation>Hvor mange av de hyppigste tokenene som kartlegges</translation>
    </message>
    <message>
        <source>Draw map</source>
        <translation>Tegn kart</translation>
    </message>
    <message>
        <source>Project the tokens on the top two principal components of their embeddings (Ctrl+M)</source>
        <translation>Projiser tokenene på de to øverste hovedkomponentene av innbyggingene (Ctrl+M)</translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation>Eksporter CSV…</translation>
    </message>
    <message>
        <source>Save the map as id,token,count,x,y, as `twb embeddings --map` writes it</source>
        <translation>Lagre kartet som id,token,count,x,y, slik `twb embeddings --map` skriver det</translation>
    </message>
    <message>
        <source>Hover a point for its token; wheel zooms, drag pans.</source>
        <translation>Hold over et punkt for tokenet; hjulet zoomer, dra panorerer.</translation>
    </message>
    <message>
        <source>Nearest tokens</source>
        <translation>Nærmeste tokener</translation>
    </message>
    <message>
        <source>Similarity of two words or texts</source>
        <translation>Likhet mellom to ord eller tekster</translation>
    </message>
    <message>
        <source>Map of the most frequent tokens (PCA)</source>
        <translation>Kart over de hyppigste tokenene (PCA)</translation>
    </message>
    <message>
        <source>Draw the embedding map</source>
        <translation>Tegn innbyggingskartet</translation>
    </message>
    <message>
        <source>“%1” is token %2 (step %3).</source>
        <translation>«%1» er token %2 (steg %3).</translation>
    </message>
    <message>
        <source>“%1” is %2 tokens (%3); their mean embedding is compared, and they are left out (step %4).</source>
        <translation>«%1» er %2 tokener (%3); snittinnbyggingen deres sammenlignes, og de utelates (steg %4).</translation>
    </message>
    <message>
        <source>%1 (step %2). The labelled points are the most frequent.</source>
        <translation>%1 (steg %2). De merkede punktene er de hyppigste.</translation>
    </message>
    <message>
        <source>Choose a run first.</source>
        <translation>Velg en kjøring først.</translation>
    </message>
    <message>
        <source>Type a word to look up.</source>
        <translation>Skriv et ord å slå opp.</translation>
    </message>
    <message>
        <source>Type a word or text in both boxes.</source>
        <translation>Skriv et ord eller en tekst i begge feltene.</translation>
    </message>
    <message>
        <source>Wrote %1</source>
        <translation>Skrev %1</translation>
    </message>
    <message>
        <source>Export the embedding map</source>
        <translation>Eksporter innbyggingskartet</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <source>1 token</source>
        <translation>1 token</translation>
    </message>
    <message>
        <source>%1 tokens</source>
        <translation>%1 tokener</translation>
    </message>
    <message>
        <source>cosine similarity &lt;b&gt;%1&lt;/b&gt; — %2 against %3 (step %4)</source>
        <translation>cosinuslikhet &lt;b&gt;%1&lt;/b&gt; — %2 mot %3 (steg %4)</translation>
    </message>
    <message>
        <source>the %1 most frequent tokens of %2 (train + val)</source>
        <translation>de %1 hyppigste tokenene i %2 (trening + validering)</translation>
    </message>
    <message>
        <source>%1 is a translation run; the embedding explorer takes a language model. Its attention, logit lens and head ablation are in the other tabs, and the Sampling panel translates with it.</source>
        <translation>%1 er en oversettelseskjøring; innbyggingsutforskeren tar en språkmodell. Oppmerksomheten, logit-linsen og hodeablasjonen dens ligger i de andre fanene, og Generering-panelet oversetter med den.</translation>
    </message>
    <message>
        <source>No neighbours: the message in red says why.</source>
        <translation>Ingen naboer: meldingen i rødt sier hvorfor.</translation>
    </message>
    <message>
        <source>No similarity: the message in red says why.</source>
        <translation>Ingen likhet: meldingen i rødt sier hvorfor.</translation>
    </message>
</context>
<context>
    <name>EnlargeToggle</name>
    <message>
        <source>Enlarge</source>
        <translation>Forstørr</translation>
    </message>
    <message>
        <source>Restore</source>
        <translation>Gjenopprett</translation>
    </message>
</context>
<context>
    <name>ExperimentWorker</name>
    <message>
        <source>the sweep failed with an unknown error</source>
        <translation>sveipet mislyktes med en ukjent feil</translation>
    </message>
    <message>
        <source>the range finder failed with an unknown error</source>
        <translation>områdesøket mislyktes med en ukjent feil</translation>
    </message>
    <message>
        <source>preparation cancelled</source>
        <translation>klargjøring avbrutt</translation>
    </message>
</context>
<context>
    <name>ExperimentsPanel</name>
    <message>
        <source>no dataset: choose one in the Training panel first</source>
        <translation>ingen datasett: velg et i Trening-panelet først</translation>
    </message>
    <message>
        <source>pending</source>
        <translation>venter</translation>
    </message>
    <message>
        <source>choose a sweep folder</source>
        <translation>velg en sveipmappe</translation>
    </message>
    <message>
        <source>%1 already holds a sweep; use Resume to continue it, or choose another folder</source>
        <translation>%1 har allerede et sveip; bruk Fortsett for å fortsette det, eller velg en annen mappe</translation>
    </message>
    <message>
        <source>%v / %m cells</source>
        <translation>%v / %m celler</translation>
    </message>
    <message>
        <source>starting %1</source>
        <translation>starter %1</translation>
    </message>
    <message>
        <source>stopping after a checkpoint…</source>
        <translation>stopper etter et sjekkpunkt…</translation>
    </message>
    <message>
        <source>removed</source>
        <translation>fjernet</translation>
    </message>
    <message>
        <source>running</source>
        <translation>kjører</translation>
    </message>
    <message>
        <source>the running cell cannot be removed; Stop the sweep first</source>
        <translation>cellen som kjører kan ikke fjernes; stopp sveipet først</translation>
    </message>
    <message>
        <source>Remove cell</source>
        <translation>Fjern celle</translation>
    </message>
    <message>
        <source>Delete the run folder %1? A resumed sweep trains this cell again.</source>
        <translation>Slette kjøringsmappen %1? Et gjenopptatt sveip trener denne cellen på nytt.</translation>
    </message>
    <message>
        <source>Sweep %1 was interrupted (%2 of %3 cells finished): &lt;a href=&apos;resume&apos;&gt;Resume&lt;/a&gt; · &lt;a href=&apos;dismiss&apos;&gt;Dismiss&lt;/a&gt;</source>
        <translation>Sveip %1 ble avbrutt (%2 av %3 celler ferdige): &lt;a href=&apos;resume&apos;&gt;Fortsett&lt;/a&gt; · &lt;a href=&apos;dismiss&apos;&gt;Avvis&lt;/a&gt;</translation>
    </message>
    <message>
        <source>choose a text file and at least one tokenizer</source>
        <translation>velg en tekstfil og minst én tokenisering</translation>
    </message>
    <message>
        <source>preparing %1 datasets…</source>
        <translation>klargjør %1 datasett…</translation>
    </message>
    <message>
        <source>&lt;span style=&apos;color:#b00&apos;&gt;%1&lt;/span&gt;</source>
        <translation>&lt;span style=&apos;color:#b00&apos;&gt;%1&lt;/span&gt;</translation>
    </message>
    <message>
        <source>1 cell</source>
        <translation>1 celle</translation>
    </message>
    <message>
        <source>%1 cells</source>
        <translation>%1 celler</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;, roughly %2 in all: a rough guess until the first cell has measured this machine&apos;s speed (the time left is then counted from its steps)</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;, omtrent %2 totalt: et grovt anslag til den første cellen har målt maskinens hastighet (gjenstående tid regnes da fra stegene)</translation>
    </message>
    <message>
        <source>Every cell starts from the Training panel&apos;s config and dataset; each axis replaces one field.</source>
        <translation>Hver celle starter fra konfigen og datasettet i Trening-panelet; hver akse erstatter ett felt.</translation>
    </message>
    <message>
        <source>Full grid</source>
        <translation>Fullt rutenett</translation>
    </message>
    <message>
        <source>Random</source>
        <translation>Tilfeldig</translation>
    </message>
    <message>
        <source> cells</source>
        <translation> celler</translation>
    </message>
    <message>
        <source>The sweep folder: sweep.json, results.md/.csv and one run folder per cell</source>
        <translation>Sveipmappen: sweep.json, results.md/.csv og én kjøringsmappe per celle</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>Bla gjennom…</translation>
    </message>
    <message>
        <source>Folder</source>
        <translation>Mappe</translation>
    </message>
    <message>
        <source>Start sweep</source>
        <translation>Start sveip</translation>
    </message>
    <message>
        <source>Run every cell, one after another (Ctrl+Shift+R)</source>
        <translation>Kjør hver celle, den ene etter den andre (Ctrl+Shift+R)</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Stopp</translation>
    </message>
    <message>
        <source>Stop after a checkpoint of the running cell; Resume continues it</source>
        <translation>Stopp etter et sjekkpunkt i cellen som kjører; Fortsett gjenopptar den</translation>
    </message>
    <message>
        <source>Resume…</source>
        <translation>Fortsett…</translation>
    </message>
    <message>
        <source>Continue an interrupted sweep folder: finished cells are kept</source>
        <translation>Fortsett en avbrutt sveipmappe: ferdige celler beholdes</translation>
    </message>
    <message>
        <source>Compare tokenizers…</source>
        <translation>Sammenlign tokeniseringer…</translation>
    </message>
    <message>
        <source>The same text prepared with char and BPE tokenizers, the same model, a table in bits per character</source>
        <translation>Samme tekst klargjort med tegn- og BPE-tokenisering, samme modell, en tabell i bit per tegn</translation>
    </message>
    <message>
        <source>Sweep folder</source>
        <translation>Sveipmappe</translation>
    </message>
    <message>
        <source>no sweep running</source>
        <translation>ingen sveip kjører</translation>
    </message>
    <message>
        <source>Idle</source>
        <translation>Ledig</translation>
    </message>
    <message>
        <source>Queue</source>
        <translation>Kø</translation>
    </message>
    <message>
        <source>Leave the selected pending cell out, or delete a finished cell&apos;s run folder (Del)</source>
        <translation>Utelat den valgte ventende cellen, eller slett en ferdig celles kjøringsmappe (Del)</translation>
    </message>
    <message>
        <source>Start s&amp;weep</source>
        <translation>Start s&amp;veip</translation>
    </message>
    <message>
        <source>Sweep folder to continue</source>
        <translation>Sveipmappe å fortsette</translation>
    </message>
    <message>
        <source>preparing %1 … %2%</source>
        <translation>klargjør %1 … %2%</translation>
    </message>
    <message>
        <source>running (resumed)</source>
        <translation>kjører (gjenopptatt)</translation>
    </message>
    <message>
        <source>running, step %1 / %2</source>
        <translation>kjører, steg %1 / %2</translation>
    </message>
    <message>
        <source>cell %1 of %2 · step %3 / %4 · about %5 left</source>
        <translation>celle %1 av %2 · steg %3 / %4 · omtrent %5 igjen</translation>
    </message>
    <message>
        <source>done (kept)</source>
        <translation>ferdig (beholdt)</translation>
    </message>
    <message>
        <source>done</source>
        <translation>ferdig</translation>
    </message>
    <message>
        <source>stopped (resumable)</source>
        <translation>stoppet (kan fortsettes)</translation>
    </message>
    <message>
        <source>Sweep finished: %1</source>
        <translation>Sveip ferdig: %1</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;, estimated %2 in all (at the speed measured in this machine&apos;s last training, %3 GFLOP/s)</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;, anslått %2 totalt (med hastigheten målt i denne maskinens siste trening, %3 GFLOP/s)</translation>
    </message>
    <message>
        <source>Sweep %1</source>
        <translation>Sveip %1</translation>
    </message>
    <message>
        <source>cell %1 of %2, step %3</source>
        <translation>celle %1 av %2, steg %3</translation>
    </message>
    <message>
        <source>Sweep stopped; Resume continues it</source>
        <translation>Sveip stoppet; Fortsett gjenopptar det</translation>
    </message>
    <message>
        <source>Preparing %1 datasets to compare</source>
        <translation>Klargjør %1 datasett til sammenligning</translation>
    </message>
    <message>
        <source>Cannot create the folder %1; choose another place.</source>
        <translation>Kan ikke opprette mappen %1; velg et annet sted.</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>mislyktes</translation>
    </message>
    <message>
        <source>Stop the sweep? The running cell writes a checkpoint; Resume continues it.</source>
        <translation>Stoppe sveipet? Cellen som kjører skriver et sjekkpunkt; Fortsett tar det opp igjen.</translation>
    </message>
    <message>
        <source>St&amp;op sweep</source>
        <translation>St&amp;opp sveip</translation>
    </message>
    <message>
        <source>In the cells: %1 Set Decay steps to Steps in the Training form for a schedule over the whole run.</source>
        <translation>I cellene: %1 Sett Avtakingssteg lik Steg i treningsskjemaet for en plan over hele kjøringen.</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Slett</translation>
    </message>
    <message>
        <source>Sweep stopped; Resume continues it from the stopped cell&apos;s last checkpoint</source>
        <translation>Sveip stoppet; Fortsett gjenopptar det fra det siste sjekkpunktet til cellen som ble stoppet</translation>
    </message>
    <message>
        <source>Every cell starts from the Training panel&apos;s config and dataset, now &lt;b&gt;%1&lt;/b&gt;, model %2×%3×%4 (layers × heads × width), %5 steps; each axis replaces one field.</source>
        <translation>Hver celle starter fra konfigen og datasettet i Trening-panelet, nå &lt;b&gt;%1&lt;/b&gt;, modell %2×%3×%4 (lag × hoder × bredde), %5 steg; hver akse erstatter ett felt.</translation>
    </message>
</context>
<context>
    <name>ExportDialog</name>
    <message>
        <source>Export model</source>
        <translation>Eksporter modell</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>Bla gjennom…</translation>
    </message>
    <message>
        <source>&amp;Export</source>
        <translation>&amp;Eksporter</translation>
    </message>
    <message>
        <source>Format</source>
        <translation>Format</translation>
    </message>
    <message>
        <source>Save to</source>
        <translation>Lagre til</translation>
    </message>
    <message>
        <source>Wrote %1 (%2)</source>
        <translation>Skrev %1 (%2)</translation>
    </message>
    <message>
        <source>Choose a run to export.</source>
        <translation>Velg en kjøring å eksportere.</translation>
    </message>
    <message>
        <source>Checking what this run&apos;s architecture allows…</source>
        <translation>Sjekker hva denne kjøringens arkitektur tillater…</translation>
    </message>
    <message>
        <source>Not available: %1</source>
        <translation>Ikke tilgjengelig: %1</translation>
    </message>
    <message>
        <source>Export to folder</source>
        <translation>Eksporter til mappe</translation>
    </message>
    <message>
        <source>Export to</source>
        <translation>Eksporter til</translation>
    </message>
    <message>
        <source>%1 (*.%2)</source>
        <translation>%1 (*.%2)</translation>
    </message>
    <message>
        <source>This run cannot be exported in that format: %1</source>
        <translation>Denne kjøringen kan ikke eksporteres i det formatet: %1</translation>
    </message>
    <message>
        <source>Choose where to save the export (Browse…).</source>
        <translation>Velg hvor eksporten skal lagres (Bla gjennom…).</translation>
    </message>
    <message>
        <source>Cannot create the folder %1; choose another place.</source>
        <translation>Kan ikke opprette mappen %1; velg et annet sted.</translation>
    </message>
    <message>
        <source>Exporting %1 to %2…</source>
        <translation>Eksporterer %1 til %2…</translation>
    </message>
    <message>
        <source>Exporting %1</source>
        <translation>Eksporterer %1</translation>
    </message>
    <message>
        <source>Not available for this run:</source>
        <translation>Ikke tilgjengelig for denne kjøringen:</translation>
    </message>
    <message>
        <source>• %1: %2</source>
        <translation>• %1: %2</translation>
    </message>
    <message>
        <source> and </source>
        <translation> og </translation>
    </message>
</context>
<context>
    <name>ExportReason</name>
    <message>
        <source>GPT-2 has learned positions (position=learned)</source>
        <translation>GPT-2 har lærte posisjoner (position=learned)</translation>
    </message>
    <message>
        <source>GPT-2 uses LayerNorm (norm=layernorm)</source>
        <translation>GPT-2 bruker LayerNorm (norm=layernorm)</translation>
    </message>
    <message>
        <source>GPT-2 normalises before each sublayer (pre)</source>
        <translation>GPT-2 normaliserer før hvert dellag (pre)</translation>
    </message>
    <message>
        <source>GPT-2&apos;s layers and norms all have biases (bias=true)</source>
        <translation>GPT-2s lag og normer har alle bias (bias=true)</translation>
    </message>
    <message>
        <source>GPT-2 has no norm of the queries and keys (qk_norm=false)</source>
        <translation>GPT-2 normaliserer ikke spørringene og nøklene (qk_norm=false)</translation>
    </message>
    <message>
        <source>Marian is an encoder-decoder (model_kind=encoder_decoder)</source>
        <translation>Marian er en koder-dekoder (model_kind=encoder_decoder)</translation>
    </message>
    <message>
        <source>Marian has fixed sinusoids in halves (position=sinusoidal, sinusoid_halves=true)</source>
        <translation>Marian har faste sinuskurver i halvdeler (position=sinusoidal, sinusoid_halves=true)</translation>
    </message>
    <message>
        <source>Marian uses LayerNorm (norm=layernorm)</source>
        <translation>Marian bruker LayerNorm (norm=layernorm)</translation>
    </message>
    <message>
        <source>Marian normalises after each sublayer (post)</source>
        <translation>Marian normaliserer etter hvert dellag (post)</translation>
    </message>
    <message>
        <source>Marian&apos;s LayerNorms have epsilon 1e-5</source>
        <translation>Marians LayerNorm-er har epsilon 1e-5</translation>
    </message>
    <message>
        <source>Marian&apos;s layers and norms all have biases (bias=true)</source>
        <translation>Marians lag og normer har alle bias (bias=true)</translation>
    </message>
    <message>
        <source>Marian has no norm of the queries and keys (qk_norm=false)</source>
        <translation>Marian normaliserer ikke spørringene og nøklene (qk_norm=false)</translation>
    </message>
    <message>
        <source>the export writes one vocabulary shared by both sides (source_vocab_size=0)</source>
        <translation>eksporten skriver ett vokabular som begge sider deler (source_vocab_size=0)</translation>
    </message>
    <message>
        <source>Marian&apos;s heads are d_model / heads wide</source>
        <translation>Marians hoder er d_model / antall hoder brede</translation>
    </message>
    <message>
        <source>llama.cpp&apos;s gpt2 architecture has learned positions only (train with position=learned)</source>
        <translation>llama.cpps gpt2-arkitektur har bare lærte posisjoner (tren med position=learned)</translation>
    </message>
    <message>
        <source>gpt2 uses LayerNorm (train with norm=layernorm)</source>
        <translation>gpt2 bruker LayerNorm (tren med norm=layernorm)</translation>
    </message>
    <message>
        <source>gpt2 normalises before each sublayer (train with norm_position=pre)</source>
        <translation>gpt2 normaliserer før hvert dellag (tren med norm_position=pre)</translation>
    </message>
    <message>
        <source>gpt2 has biases in every linear layer and norm (train with bias=true)</source>
        <translation>gpt2 har bias i hvert lineære lag og hver norm (tren med bias=true)</translation>
    </message>
    <message>
        <source>llama.cpp&apos;s gpt2 architecture has no norm of the queries and keys (train with qk_norm=false)</source>
        <translation>llama.cpps gpt2-arkitektur normaliserer ikke spørringene og nøklene (tren med qk_norm=false)</translation>
    </message>
    <message>
        <source>gpt2 uses GELU&apos;s tanh approximation (train with activation=gelu_tanh)</source>
        <translation>gpt2 bruker GELUs tanh-tilnærming (tren med activation=gelu_tanh)</translation>
    </message>
    <message>
        <source>llama.cpp&apos;s gpt2 architecture reads a byte-level BPE vocabulary only (prepare the data with --tokenizer bytebpe and train again)</source>
        <translation>llama.cpps gpt2-arkitektur leser bare et BPE-vokabular på bytenivå (klargjør dataene med --tokenizer bytebpe og tren på nytt)</translation>
    </message>
    <message>
        <source>llama.cpp knows GPT-2&apos;s and GPT-4&apos;s patterns only</source>
        <translation>llama.cpp kjenner bare mønstrene til GPT-2 og GPT-4</translation>
    </message>
    <message>
        <source>split pattern &apos;%1&apos;</source>
        <translation>splittemønster &apos;%1&apos;</translation>
    </message>
    <message>
        <source>GPT-2&apos;s heads are n_embd / n_head = %1 wide</source>
        <translation>GPT-2s hoder er n_embd / n_head = %1 brede</translation>
    </message>
    <message>
        <source>gpt2 needs n_head * head_size = n_embd (%1 * %2 != %3; leave head_size at 0)</source>
        <translation>gpt2 krever n_head * head_size = n_embd (%1 * %2 != %3; la head_size stå på 0)</translation>
    </message>
</context>
<context>
    <name>GenerationEvalView</name>
    <message>
        <source>Load file…</source>
        <translation>Last inn fil…</translation>
    </message>
    <message>
        <source>Text file, one per line</source>
        <translation>Tekstfil, én per linje</translation>
    </message>
    <message>
        <source>could not read %1</source>
        <translation>kunne ikke lese %1</translation>
    </message>
    <message>
        <source>Prompts (one per line)</source>
        <translation>Ledetekster (én per linje)</translation>
    </message>
    <message>
        <source>References (optional, one per prompt)</source>
        <translation>Referanser (valgfritt)</translation>
    </message>
    <message>
        <source>for BLEU</source>
        <translation>for BLEU</translation>
    </message>
    <message>
        <source>Decoding settings (one per line)</source>
        <translation>Dekodingsoppsett (ett per linje)</translation>
    </message>
    <message>
        <source>greedy
temperature=0.8,top_k=40
beam=5</source>
        <translation>greedy
temperature=0.8,top_k=40
beam=5</translation>
    </message>
    <message>
        <source>&apos;greedy&apos;, or key=value,... with temperature, top_k, top_p, beam, length_penalty, repetition_penalty, no_repeat_ngram, max_new_tokens, seed</source>
        <translation>&apos;greedy&apos;, eller key=value,... med temperature, top_k, top_p, beam, length_penalty, repetition_penalty, no_repeat_ngram, max_new_tokens, seed</translation>
    </message>
    <message>
        <source>New tokens</source>
        <translation>Nye tokener</translation>
    </message>
    <message>
        <source>Evaluate</source>
        <translation>Evaluer</translation>
    </message>
    <message>
        <source>Generate every prompt with every setting and score them (Ctrl+E)</source>
        <translation>Generer hver ledetekst med hvert oppsett og gi dem poeng (Ctrl+E)</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Avbryt</translation>
    </message>
    <message>
        <source>Export Markdown…</source>
        <translation>Eksporter Markdown…</translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation>Eksporter CSV…</translation>
    </message>
    <message>
        <source>%v / %m generations</source>
        <translation>%v / %m genereringer</translation>
    </message>
    <message>
        <source>setting</source>
        <translation>oppsett</translation>
    </message>
    <message>
        <source>tokens</source>
        <translation>tokener</translation>
    </message>
    <message>
        <source>tokens/s</source>
        <translation>tokener/s</translation>
    </message>
    <message>
        <source>mean log-prob</source>
        <translation>snitt log-sannsynl.</translation>
    </message>
    <message>
        <source>perplexity</source>
        <translation>perpleksitet</translation>
    </message>
    <message>
        <source>distinct-1</source>
        <translation>distinct-1</translation>
    </message>
    <message>
        <source>distinct-2</source>
        <translation>distinct-2</translation>
    </message>
    <message>
        <source>repetition</source>
        <translation>gjentakelse</translation>
    </message>
    <message>
        <source>BLEU</source>
        <translation>BLEU</translation>
    </message>
    <message>
        <source>first output</source>
        <translation>første utdata</translation>
    </message>
    <message>
        <source>cancelled: %1 of the settings finished</source>
        <translation>avbrutt: %1 av oppsettene ble ferdige</translation>
    </message>
    <message>
        <source>%1 settings evaluated</source>
        <translation>%1 oppsett evaluert</translation>
    </message>
    <message>
        <source>&lt;span style=&apos;color:#b00&apos;&gt;%1&lt;/span&gt;</source>
        <translation>&lt;span style=&apos;color:#b00&apos;&gt;%1&lt;/span&gt;</translation>
    </message>
    <message>
        <source>choose a run above first</source>
        <translation>velg en kjøring over først</translation>
    </message>
    <message>
        <source>type at least one prompt (one per line) or load a file</source>
        <translation>skriv minst én ledetekst (én per linje) eller last inn en fil</translation>
    </message>
    <message>
        <source>give at least one decoding setting, e.g. greedy</source>
        <translation>oppgi minst ett dekodingsoppsett, f.eks. greedy</translation>
    </message>
    <message>
        <source>Export the table</source>
        <translation>Eksporter tabellen</translation>
    </message>
    <message>
        <source>Markdown (*.md)</source>
        <translation>Markdown (*.md)</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <source>exported %1</source>
        <translation>eksporterte %1</translation>
    </message>
    <message>
        <source>%1 / %2 generations</source>
        <translation>%1 / %2 genereringer</translation>
    </message>
    <message>
        <source>Evaluating %1 decoding settings</source>
        <translation>Evaluerer %1 dekodingsinnstillinger</translation>
    </message>
    <message>
        <source>references: %1 lines, prompts: %2 lines; give one reference per prompt, or none</source>
        <translation>referanser: %1 linjer, ledetekster: %2 linjer; gi én referanse per ledetekst, eller ingen</translation>
    </message>
    <message>
        <source>generating %1 × %2…</source>
        <translation>genererer %1 × %2…</translation>
    </message>
    <message>
        <source>1 prompt</source>
        <translation>1 ledetekst</translation>
    </message>
    <message>
        <source>%1 prompts</source>
        <translation>%1 ledetekster</translation>
    </message>
    <message>
        <source>1 setting</source>
        <translation>1 oppsett</translation>
    </message>
    <message>
        <source>%1 settings</source>
        <translation>%1 oppsett</translation>
    </message>
</context>
<context>
    <name>HeadAblationView</name>
    <message>
        <source>Export the ablation table</source>
        <translation>Eksporter ablasjonstabellen</translation>
    </message>
    <message>
        <source>heads to switch off: LAYER.HEAD from 0, e.g. 0.1, 1.* for a whole layer</source>
        <translation>hoder å slå av: LAG.HODE fra 0, f.eks. 0.1, 1.* for et helt lag</translation>
    </message>
    <message>
        <source> tokens</source>
        <translation> tokener</translation>
    </message>
    <message>
        <source>Validation tokens scored per evaluation: more is steadier, and slower</source>
        <translation>Valideringstokener vurdert per evaluering: flere er jevnere, og tregere</translation>
    </message>
    <message>
        <source>Loss with these off</source>
        <translation>Tap med disse av</translation>
    </message>
    <message>
        <source>Cost of every head</source>
        <translation>Kostnad for hvert hode</translation>
    </message>
    <message>
        <source>Switch each head off alone and measure the loss: one evaluation per head</source>
        <translation>Slå av hvert hode alene og mål tapet: én evaluering per hode</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Avbryt</translation>
    </message>
    <message>
        <source>Stop: the rows computed so far stay</source>
        <translation>Stopp: radene som er beregnet så langt, blir stående</translation>
    </message>
    <message>
        <source>Heads off</source>
        <translation>Hoder av</translation>
    </message>
    <message>
        <source>Loss</source>
        <translation>Tap</translation>
    </message>
    <message>
        <source>Cost</source>
        <translation>Kostnad</translation>
    </message>
    <message>
        <source>The cost of a head is the validation loss with it switched off minus the loss with every head: what the model loses without it, in nats per token.</source>
        <translation>Kostnaden for et hode er valideringstapet med hodet slått av minus tapet med alle hoder: hva modellen taper uten det, i nats per token.</translation>
    </message>
    <message>
        <source>seed </source>
        <translation>frø </translation>
    </message>
    <message>
        <source>Generate with and without</source>
        <translation>Generer med og uten</translation>
    </message>
    <message>
        <source>every head</source>
        <translation>alle hoder</translation>
    </message>
    <message>
        <source>with the heads above off</source>
        <translation>med hodene over slått av</translation>
    </message>
    <message>
        <source>Export figure…</source>
        <translation>Eksporter figur…</translation>
    </message>
    <message>
        <source>Export numbers…</source>
        <translation>Eksporter tall…</translation>
    </message>
    <message>
        <source>Generated text, same prompt and seed</source>
        <translation>Generert tekst, samme ledetekst og frø</translation>
    </message>
    <message>
        <source>Switch each of the %1 heads off alone and measure the loss: %1 evaluations</source>
        <translation>Slå av hvert av de %1 hodene alene og mål tapet: %1 evalueringer</translation>
    </message>
    <message>
        <source>No run to ablate: train one in the Training panel or open a run folder.</source>
        <translation>Ingen kjøring å ablere: tren en i Trening-panelet eller åpne en kjøringsmappe.</translation>
    </message>
    <message>
        <source>Type the heads to switch off (e.g. 0.1, 1.*), or compute the cost of every head.</source>
        <translation>Skriv hodene som skal slås av (f.eks. 0.1, 1.*), eller beregn kostnaden for hvert hode.</translation>
    </message>
    <message>
        <source>Head ablation</source>
        <translation>Hodeablasjon</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>avbrutt</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>none</source>
        <translation>ingen</translation>
    </message>
    <message>
        <source>%1 loss over %2 tokens with every head: %3 nats per token.%4 Cost = loss with the head off − %3.</source>
        <translation>%1-tap over %2 tokener med alle hoder: %3 nats per token.%4 Kostnad = tap med hodet av − %3.</translation>
    </message>
    <message>
        <source> Cancelled: the rows below are all that was computed.</source>
        <translation> Avbrutt: radene under er alt som ble beregnet.</translation>
    </message>
    <message>
        <source>Type the heads to switch off (e.g. 0.1, 1.*) to see the text without them.</source>
        <translation>Skriv hodene som skal slås av (f.eks. 0.1, 1.*) for å se teksten uten dem.</translation>
    </message>
    <message>
        <source>CSV (*.csv);;JSON (*.json)</source>
        <translation>CSV (*.csv);;JSON (*.json)</translation>
    </message>
    <message>
        <source>Cannot write %1: check the folder exists and is writable.</source>
        <translation>Kan ikke skrive %1: sjekk at mappen finnes og er skrivbar.</translation>
    </message>
    <message>
        <source>%1 (the typed set)</source>
        <translation>%1 (settet du skrev)</translation>
    </message>
    <message>
        <source>heads to switch off: enc.L.H for the encoder&apos;s, cross.L.H for cross-attention&apos;s, L.H for the decoder&apos;s own, e.g. cross.0.*</source>
        <translation>hoder å slå av: enc.L.H for koderens, cross.L.H for kryssoppmerksomhetens, L.H for dekoderens egne, f.eks. cross.0.*</translation>
    </message>
    <message>
        <source>a source sentence to translate</source>
        <translation>en kildesetning å oversette</translation>
    </message>
    <message>
        <source>a prompt</source>
        <translation>en ledetekst</translation>
    </message>
    <message>
        <source>its translation with every head</source>
        <translation>oversettelsen med alle hoder</translation>
    </message>
    <message>
        <source>its translation with the heads above off</source>
        <translation>oversettelsen med hodene over slått av</translation>
    </message>
    <message>
        <source>Translate with and without</source>
        <translation>Oversett med og uten</translation>
    </message>
    <message>
        <source>A translation is greedy and ends by itself</source>
        <translation>En oversettelse er grådig og slutter av seg selv</translation>
    </message>
    <message>
        <source>Translated text, greedy</source>
        <translation>Oversatt tekst, grådig</translation>
    </message>
    <message>
        <source>Heads as layer.head, counted from 0: 0.3 is layer 0, head 3</source>
        <translation>Hoder som lag.hode, talt fra 0: 0.3 er lag 0, hode 3</translation>
    </message>
    <message>
        <source>Heads off (layer.head):</source>
        <translation>Hoder av (lag.hode):</translation>
    </message>
    <message>
        <source>Measuring the cost of every head…</source>
        <translation>Måler kostnaden for hvert hode …</translation>
    </message>
    <message>
        <source>Measuring the loss…</source>
        <translation>Måler tapet …</translation>
    </message>
</context>
<context>
    <name>HeadGrid</name>
    <message>
        <source>Choose a run and show a prompt to see every head.</source>
        <translation>Velg en kjøring og vis en ledetekst for å se alle hoder.</translation>
    </message>
    <message>
        <source>head %1</source>
        <translation>hode %1</translation>
    </message>
    <message>
        <source>mean</source>
        <translation>snitt</translation>
    </message>
    <message>
        <source>layer %1</source>
        <translation>lag %1</translation>
    </message>
    <message>
        <source>bars: %1</source>
        <translation>søyler: %1</translation>
    </message>
</context>
<context>
    <name>HeadScorePlot</name>
    <message>
        <source>step</source>
        <translation>steg</translation>
    </message>
    <message>
        <source>entropy (1 = uniform)</source>
        <translation>entropi (1 = jevn)</translation>
    </message>
    <message>
        <source>previous-token weight</source>
        <translation>vekt på forrige token</translation>
    </message>
    <message>
        <source>first-token weight</source>
        <translation>vekt på første token</translation>
    </message>
    <message>
        <source>self weight</source>
        <translation>vekt på seg selv</translation>
    </message>
    <message>
        <source>L%1 H%2</source>
        <translation>L%1 H%2</translation>
    </message>
    <message>
        <source>Choose Probe timeline (left of the prompt) to follow each head&apos;s score over training:
a run records its attention to the probe text at every evaluation.</source>
        <translation>Velg Sondetidslinje (til venstre for ledeteksten) for å følge hvert hodes poeng gjennom treningen:
en kjøring tar opp oppmerksomheten på sondeteksten ved hver evaluering.</translation>
    </message>
</context>
<context>
    <name>Heatmap</name>
    <message>
        <source>%1 %2 (%3) → %4 %5 (%6): %7</source>
        <translation>%1 %2 (%3) → %4 %5 (%6): %7</translation>
    </message>
    <message>
        <source>masked</source>
        <translation>maskert</translation>
    </message>
</context>
<context>
    <name>HistoryView</name>
    <message>
        <source>Use this prompt</source>
        <translation>Bruk denne ledeteksten</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>Eksporter…</translation>
    </message>
    <message>
        <source>
--- sample %1 ---
</source>
        <translation>
--- prøve %1 ---
</translation>
    </message>
    <message>
        <source>Export text</source>
        <translation>Eksporter tekst</translation>
    </message>
    <message>
        <source>Text (*.txt)</source>
        <translation>Tekst (*.txt)</translation>
    </message>
    <message>
        <source>Cannot write %1</source>
        <translation>Kan ikke skrive %1</translation>
    </message>
    <message>
        <source>%1 · step %2 · T=%3%4 · %5</source>
        <translation>%1 · steg %2 · T=%3%4 · %5</translation>
    </message>
    <message>
        <source>(no prompt)</source>
        <translation>(ingen ledetekst)</translation>
    </message>
    <message>
        <source>No generations of this run yet: each one made with Generate (or twb sample) is kept here with its prompt and settings.</source>
        <translation>Ingen genereringer fra denne kjøringen ennå: hver generering med Generer (eller twb sample) tas vare på her med ledetekst og innstillinger.</translation>
    </message>
    <message>
        <source>Choose a generation on the left to read it whole.</source>
        <translation>Velg en generering til venstre for å lese den i sin helhet.</translation>
    </message>
</context>
<context>
    <name>ImportDialog</name>
    <message>
        <source>%1: %2 layers × %3 heads × %4 channels, vocabulary %5, %6 parameters (%7 weights, %8)</source>
        <translation>%1: %2 lag × %3 hoder × %4 kanaler, vokabular %5, %6 parametere (%7-vekter, %8)</translation>
    </message>
    <message>
        <source>a translation model</source>
        <translation>en oversettelsesmodell</translation>
    </message>
    <message>
        <source>a language model</source>
        <translation>en språkmodell</translation>
    </message>
    <message>
        <source>Import model</source>
        <translation>Importer modell</translation>
    </message>
    <message>
        <source>A model in the Hugging Face layout becomes a run of this workspace: a GPT-2-family folder (config.json, model.safetensors, vocab.json + merges.txt or tokenizer.json) a language model, a Marian translation model (opus-mt: config.json, model.safetensors, source.spm, target.spm, vocab.json) a translation model. A folder exported here as safetensors + config.json comes back as the model it was. Only safetensors weights are read.</source>
        <translation>En modell i Hugging Face-oppsettet blir en kjøring i dette arbeidsområdet: en mappe fra GPT-2-familien (config.json, model.safetensors, vocab.json + merges.txt eller tokenizer.json) blir en språkmodell, en Marian-oversettelsesmodell (opus-mt: config.json, model.safetensors, source.spm, target.spm, vocab.json) en oversettelsesmodell. En mappe eksportert herfra som safetensors + config.json kommer tilbake som modellen den var. Bare safetensors-vekter leses.</translation>
    </message>
    <message>
        <source>a folder with config.json and model.safetensors</source>
        <translation>en mappe med config.json og model.safetensors</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>Bla gjennom…</translation>
    </message>
    <message>
        <source>&amp;Import</source>
        <translation>&amp;Importer</translation>
    </message>
    <message>
        <source>Hugging Face folder</source>
        <translation>Hugging Face-mappe</translation>
    </message>
    <message>
        <source>Run name</source>
        <translation>Kjøringens navn</translation>
    </message>
    <message>
        <source>Hugging Face model folder</source>
        <translation>Hugging Face-modellmappe</translation>
    </message>
    <message>
        <source>Choose the model&apos;s folder (Browse…).</source>
        <translation>Velg modellens mappe (Bla gjennom…).</translation>
    </message>
    <message>
        <source>%1 is not a folder; choose the folder that holds config.json.</source>
        <translation>%1 er ikke en mappe; velg mappen som inneholder config.json.</translation>
    </message>
    <message>
        <source>Give the run a name without slashes.</source>
        <translation>Gi kjøringen et navn uten skråstreker.</translation>
    </message>
    <message>
        <source>A run named %1 exists already; choose another name.</source>
        <translation>En kjøring som heter %1, finnes allerede; velg et annet navn.</translation>
    </message>
    <message>
        <source>Cannot create the runs folder %1.</source>
        <translation>Kan ikke opprette mappen for kjøringer %1.</translation>
    </message>
    <message>
        <source>Importing %1 as %2…</source>
        <translation>Importerer %1 som %2…</translation>
    </message>
    <message>
        <source>Importing %1</source>
        <translation>Importerer %1</translation>
    </message>
    <message>
        <source>Imported %1 into %2</source>
        <translation>Importerte %1 til %2</translation>
    </message>
</context>
<context>
    <name>ImportTab</name>
    <message>
        <source>Files and folders to read (drop them here). Parallel: source file, then target file.</source>
        <translation>Filer og mapper som skal leses (slipp dem her). Parallelt: kildefil, så målfil.</translation>
    </message>
    <message>
        <source>Add files…</source>
        <translation>Legg til filer…</translation>
    </message>
    <message>
        <source>Add folder…</source>
        <translation>Legg til mappe…</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Fjern</translation>
    </message>
    <message>
        <source>Plain text</source>
        <translation>Ren tekst</translation>
    </message>
    <message>
        <source>JSON lines (one field)</source>
        <translation>JSON-linjer (ett felt)</translation>
    </message>
    <message>
        <source>CSV (one column)</source>
        <translation>CSV (én kolonne)</translation>
    </message>
    <message>
        <source>TSV (one column)</source>
        <translation>TSV (én kolonne)</translation>
    </message>
    <message>
        <source>Parallel pair (source, target)</source>
        <translation>Parallelt par (kilde, mål)</translation>
    </message>
    <message>
        <source>Records with a separator line</source>
        <translation>Poster med en skillelinje</translation>
    </message>
    <message>
        <source>name or 0-based index</source>
        <translation>navn eller indeks fra 0</translation>
    </message>
    <message>
        <source>Format</source>
        <translation>Format</translation>
    </message>
    <message>
        <source>JSON field</source>
        <translation>JSON-felt</translation>
    </message>
    <message>
        <source>Column</source>
        <translation>Kolonne</translation>
    </message>
    <message>
        <source>Record separator</source>
        <translation>Postskille</translation>
    </message>
    <message>
        <source>Cleaning</source>
        <translation>Rensing</translation>
    </message>
    <message>
        <source>Raw text of the first documents</source>
        <translation>Råtekst fra de første dokumentene</translation>
    </message>
    <message>
        <source>The same after cleaning</source>
        <translation>Det samme etter rensing</translation>
    </message>
    <message>
        <source>Add text files to see a preview.</source>
        <translation>Legg til tekstfiler for å se en forhåndsvisning.</translation>
    </message>
    <message>
        <source>Sources: drop files or folders here, or add them below</source>
        <translation>Kilder: slipp filer eller mapper her, eller legg dem til nedenfor</translation>
    </message>
    <message>
        <source>Add text files</source>
        <translation>Legg til tekstfiler</translation>
    </message>
    <message>
        <source>Add a folder of text files</source>
        <translation>Legg til en mappe med tekstfiler</translation>
    </message>
    <message>
        <source>Unicode NFKC (ligatures, full-width → plain)</source>
        <translation>Unicode NFKC (ligaturer, full bredde → vanlig)</translation>
    </message>
    <message>
        <source>Normalise whitespace (CRLF, runs of spaces, trailing)</source>
        <translation>Normaliser mellomrom (CRLF, flere på rad, etterfølgende)</translation>
    </message>
    <message>
        <source>Transliterate to ASCII (“café” → &quot;cafe&quot;)</source>
        <translation>Translitterer til ASCII (“café” → &quot;cafe&quot;)</translation>
    </message>
    <message>
        <source>Strip characters outside printable ASCII</source>
        <translation>Fjern tegn utenfor skrivbar ASCII</translation>
    </message>
    <message>
        <source>Drop Project Gutenberg header/footer</source>
        <translation>Fjern topp- og bunntekst fra Project Gutenberg</translation>
    </message>
    <message>
        <source>Lowercase</source>
        <translation>Små bokstaver</translation>
    </message>
    <message>
        <source>Drop empty lines</source>
        <translation>Fjern tomme linjer</translation>
    </message>
    <message>
        <source>Drop duplicate lines</source>
        <translation>Fjern like linjer</translation>
    </message>
    <message>
        <source>No preview: the message in red says why.</source>
        <translation>Ingen forhåndsvisning: meldingen i rødt sier hvorfor.</translation>
    </message>
    <message>
        <source>Replace invalid bytes with U+FFFD</source>
        <translation>Erstatt ugyldige byte med U+FFFD</translation>
    </message>
    <message>
        <source>A file that is not valid UTF-8 is refused, naming the first bad byte; with this, each bad byte becomes the replacement character � and the dataset&apos;s meta.json counts them. Converting the file (iconv -f latin1 -t utf-8) keeps its letters instead.</source>
        <translation>En fil som ikke er gyldig UTF-8, avvises med navn på den første dårlige byten; med dette blir hver dårlige byte erstatningstegnet �, og datasettets meta.json teller dem. Å konvertere fila (iconv -f latin1 -t utf-8) beholder heller bokstavene.</translation>
    </message>
    <message>
        <source>tick “Replace invalid bytes with U+FFFD” under the Import tab&apos;s format</source>
        <translation>kryss av for «Erstatt ugyldige byte med U+FFFD» under formatet i fanen «Importer og rens»</translation>
    </message>
    <message>
        <source>Before</source>
        <translation>Før</translation>
    </message>
    <message>
        <source>After</source>
        <translation>Etter</translation>
    </message>
    <message>
        <source>Changes and removals in red, what they become in green.</source>
        <translation>Endringer og fjerninger i rødt, det de blir til i grønt.</translation>
    </message>
</context>
<context>
    <name>Job</name>
    <message>
        <source>%1 cancelled</source>
        <translation>%1 avbrutt</translation>
    </message>
    <message>
        <source>the job</source>
        <translation>jobben</translation>
    </message>
    <message>
        <source>the window closed</source>
        <translation>vinduet ble lukket</translation>
    </message>
</context>
<context>
    <name>JobsStatus</name>
    <message>
        <source>Cancel</source>
        <translation>Avbryt</translation>
    </message>
    <message>
        <source> (+%1 more)</source>
        <translation> (+%1 til)</translation>
    </message>
</context>
<context>
    <name>LensGrid</name>
    <message>
        <source>%1, after “%2” (position %3)</source>
        <translation>%1, etter «%2» (posisjon %3)</translation>
    </message>
    <message>
        <source>
the model&apos;s choice “%1”: rank %2 here, p = %3</source>
        <translation>
modellens valg «%1»: rang %2 her, p = %3</translation>
    </message>
    <message>
        <source>Type a prompt and press Show</source>
        <translation>Skriv en ledetekst og trykk Vis</translation>
    </message>
    <message>
        <source>%1 = output</source>
        <translation>%1 = utdata</translation>
    </message>
    <message>
        <source>embedding</source>
        <translation>innbygging</translation>
    </message>
    <message>
        <source>block %1</source>
        <translation>blokk %1</translation>
    </message>
</context>
<context>
    <name>LogitLensView</name>
    <message>
        <source>A prompt: the lens shows every position of it</source>
        <translation>En ledetekst: linsen viser hver posisjon i den</translation>
    </message>
    <message>
        <source>top </source>
        <translation>topp </translation>
    </message>
    <message>
        <source>Tokens listed on hover and exported per cell</source>
        <translation>Tokener listet ved pekeren og eksportert per celle</translation>
    </message>
    <message>
        <source>Show</source>
        <translation>Vis</translation>
    </message>
    <message>
        <source>Look through the layers (Return)</source>
        <translation>Se gjennom lagene (Retur)</translation>
    </message>
    <message>
        <source>Export figure…</source>
        <translation>Eksporter figur…</translation>
    </message>
    <message>
        <source>Export numbers…</source>
        <translation>Eksporter tall…</translation>
    </message>
    <message>
        <source>Export the logit lens</source>
        <translation>Eksporter logitlinsen</translation>
    </message>
    <message>
        <source>No run to look into: train one in the Training panel or open a run folder.</source>
        <translation>Ingen kjøring å se inn i: tren en i Trening-panelet eller åpne en kjøringsmappe.</translation>
    </message>
    <message>
        <source>Export the lens&apos;s numbers</source>
        <translation>Eksporter linsens tall</translation>
    </message>
    <message>
        <source>CSV (*.csv);;JSON (*.json)</source>
        <translation>CSV (*.csv);;JSON (*.json)</translation>
    </message>
    <message>
        <source>Cannot write %1: check the folder exists and is writable.</source>
        <translation>Kan ikke skrive %1: sjekk at mappen finnes og er skrivbar.</translation>
    </message>
    <message>
        <source>Each row is what the model would predict if it stopped there: the final norm and the output layer applied to the residual stream after the embedding and after each block. The top row (the last block = output) is the model&apos;s own prediction; an orange corner marks a cell that already agrees with it. Hover a cell for its top tokens. For a translation run, type a source sentence: the lens looks through the decoder over the model&apos;s translation.</source>
        <translation>Hver rad er det modellen ville spådd om den stoppet der: den siste normen og utdatalaget brukt på residualstrømmen etter innbyggingen og etter hver blokk. Øverste rad (siste blokk = utdata) er modellens egen spådom; et oransje hjørne markerer en celle som allerede er enig med den. Hold over en celle for de fremste tokenene. For en oversettelseskjøring, skriv en kildesetning: linsen ser gjennom dekoderen over modellens oversettelse.</translation>
    </message>
    <message>
        <source>The text has %1 tokens; the lens shows the last %2 (the model&apos;s context, block_size).</source>
        <translation>Teksten har %1 tokener; linsen viser de siste %2 (modellens kontekst, block_size).</translation>
    </message>
</context>
<context>
    <name>LrFindDialog</name>
    <message>
        <source>Find learning rate</source>
        <translation>Finn læringsrate</translation>
    </message>
    <message>
        <source>Trains a fresh model of this config for a few steps with the learning rate growing exponentially, and stops when the loss runs away. The open run is not touched.</source>
        <translation>Trener en ny modell med denne konfigurasjonen i noen steg mens læringsraten vokser eksponentielt, og stopper når tapet løper løpsk. Den åpne kjøringen røres ikke.</translation>
    </message>
    <message>
        <source>from</source>
        <translation>fra</translation>
    </message>
    <message>
        <source>to</source>
        <translation>til</translation>
    </message>
    <message>
        <source>over</source>
        <translation>over</translation>
    </message>
    <message>
        <source>steps</source>
        <translation>steg</translation>
    </message>
    <message>
        <source>learning rate</source>
        <translation>læringsrate</translation>
    </message>
    <message>
        <source>smoothed training loss</source>
        <translation>glattet treningstap</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>Start</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Avbryt</translation>
    </message>
    <message>
        <source>Use this rate</source>
        <translation>Bruk denne raten</translation>
    </message>
    <message>
        <source>Put the chosen rate into the config form&apos;s learning rate</source>
        <translation>Sett den valgte raten inn som læringsrate i konfigskjemaet</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Lukk</translation>
    </message>
    <message>
        <source>lowest loss / 10</source>
        <translation>laveste tap / 10</translation>
    </message>
    <message>
        <source>steepest fall</source>
        <translation>bratteste fall</translation>
    </message>
    <message>
        <source>step %1 · lr %2 · loss %3</source>
        <translation>steg %1 · lr %2 · tap %3</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>avbrutt</translation>
    </message>
    <message>
        <source>&lt;span style=&apos;color:#b00&apos;&gt;%1&lt;/span&gt;</source>
        <translation>&lt;span style=&apos;color:#b00&apos;&gt;%1&lt;/span&gt;</translation>
    </message>
    <message>
        <source>&lt;span style=&apos;color:#b00&apos;&gt;the first rate must be below the last&lt;/span&gt;</source>
        <translation>&lt;span style=&apos;color:#b00&apos;&gt;den første raten må være under den siste&lt;/span&gt;</translation>
    </message>
    <message>
        <source>training a fresh model…</source>
        <translation>trener en ny modell…</translation>
    </message>
    <message>
        <source> lowest / 10: %1</source>
        <translation> laveste / 10: %1</translation>
    </message>
    <message>
        <source> steepest: %1</source>
        <translation> brattest: %1</translation>
    </message>
    <message>
        <source>lowest loss / 10: %1</source>
        <translation>laveste tap / 10: %1</translation>
    </message>
    <message>
        <source>steepest fall: %1</source>
        <translation>bratteste fall: %1</translation>
    </message>
    <message>
        <source>step %1</source>
        <translation>steg %1</translation>
    </message>
    <message>
        <source>Finding the learning rate</source>
        <translation>Finner læringsraten</translation>
    </message>
    <message>
        <source>loss</source>
        <translation>tap</translation>
    </message>
    <message>
        <source>The loss ran away at learning rate %1; the suggestions are below it</source>
        <translation>Tapet løp løpsk ved læringsrate %1; forslagene ligger under den</translation>
    </message>
    <message>
        <source>Went up to the last rate, %1, and the loss never ran away (rose to %2 times its lowest)</source>
        <translation>Gikk opp til den siste raten, %1, og tapet løp aldri løpsk (steg til %2 ganger det laveste)</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Transformer Workbench</source>
        <translation>Transformer Workbench</translation>
    </message>
    <message>
        <source>Datasets</source>
        <translation>Datasett</translation>
    </message>
    <message>
        <source>Import, clean and tokenize text (Alt+1)</source>
        <translation>Importer, rens og tokeniser tekst (Alt+1)</translation>
    </message>
    <message>
        <source>Training</source>
        <translation>Trening</translation>
    </message>
    <message>
        <source>Train a model and watch it learn (Alt+2)</source>
        <translation>Tren en modell og se den lære (Alt+2)</translation>
    </message>
    <message>
        <source>Attention</source>
        <translation>Oppmerksomhet</translation>
    </message>
    <message>
        <source>Look inside a run&apos;s attention heads (Alt+3)</source>
        <translation>Se inn i en kjørings oppmerksomhetshoder (Alt+3)</translation>
    </message>
    <message>
        <source>Sampling</source>
        <translation>Generering</translation>
    </message>
    <message>
        <source>Generate text from a run (Alt+4)</source>
        <translation>Generer tekst fra en kjøring (Alt+4)</translation>
    </message>
    <message>
        <source>Experiments</source>
        <translation>Eksperimenter</translation>
    </message>
    <message>
        <source>Sweeps over the config with a results table; compare tokenizers (Alt+5)</source>
        <translation>Sveip over konfigen med en resultattabell; sammenlign tokeniseringer (Alt+5)</translation>
    </message>
    <message>
        <source>Runs</source>
        <translation>Kjøringer</translation>
    </message>
    <message>
        <source>Every run of the workspace: name, notes, results; open, duplicate, compare, delete (Alt+6)</source>
        <translation>Alle kjøringer i arbeidsområdet: navn, notater, resultater; åpne, dupliser, sammenlign, slett (Alt+6)</translation>
    </message>
    <message>
        <source>F1: getting started
Ctrl+/: shortcuts</source>
        <translation>F1: kom i gang
Ctrl+/: hurtigtaster</translation>
    </message>
    <message>
        <source>%1 failed: %2</source>
        <translation>%1 mislyktes: %2</translation>
    </message>
    <message>
        <source>A background job</source>
        <translation>En bakgrunnsjobb</translation>
    </message>
    <message>
        <source>%1 — Transformer Workbench</source>
        <translation>%1 — Transformer Workbench</translation>
    </message>
    <message>
        <source>Training is running</source>
        <translation>Trening pågår</translation>
    </message>
    <message>
        <source>Stop training (a checkpoint is written) and quit?</source>
        <translation>Stoppe treningen (et sjekkpunkt skrives) og avslutte?</translation>
    </message>
    <message>
        <source>A sweep is running</source>
        <translation>Et sveip kjører</translation>
    </message>
    <message>
        <source>Stop the sweep (the running cell writes a checkpoint; Resume continues it) and quit?</source>
        <translation>Stoppe sveipet (cellen som kjører skriver et sjekkpunkt; Fortsett gjenopptar den) og avslutte?</translation>
    </message>
    <message>
        <source>Compare runs</source>
        <translation>Sammenlign kjøringer</translation>
    </message>
    <message>
        <source>About Transformer Workbench</source>
        <translation>Om Transformer Workbench</translation>
    </message>
    <message>
        <source>(runtime check still running)</source>
        <translation>(kjøretidssjekken pågår fortsatt)</translation>
    </message>
    <message>
        <source>(a key of this panel)</source>
        <translation>(en tast i dette panelet)</translation>
    </message>
    <message>
        <source>Window</source>
        <translation>Vindu</translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>Hurtigtaster</translation>
    </message>
    <message>
        <source>Getting started</source>
        <translation>Kom i gang</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Getting started&lt;/h3&gt;&lt;ol&gt;&lt;li&gt;&lt;b&gt;Quick start&lt;/b&gt; (Ctrl+R, Training panel) prepares Debian&apos;s fortune cookies and trains a tiny model in about a minute: watch the loss fall.&lt;/li&gt;&lt;li&gt;&lt;b&gt;Sampling&lt;/b&gt; (Alt+4): type a prompt and generate text from the run&apos;s best checkpoint.&lt;/li&gt;&lt;li&gt;&lt;b&gt;Attention&lt;/b&gt; (Alt+3): see what each head looks at, token by token.&lt;/li&gt;&lt;li&gt;&lt;b&gt;Your own text&lt;/b&gt;: Datasets (Alt+1) → add text files, choose cleaning and a tokenizer, Prepare, then &lt;i&gt;Train on it&lt;/i&gt;. A dataset that does not match the open run starts a new run.&lt;/li&gt;&lt;li&gt;&lt;b&gt;Experiments&lt;/b&gt; (Alt+5): sweep config fields over a grid and compare the cells in one table; Run → Find learning rate (Ctrl+L, or the Training panel&apos;s button) suggests a rate.&lt;/li&gt;&lt;li&gt;&lt;b&gt;Runs&lt;/b&gt; (Alt+6) lists every run of the workspace with its results: give runs names and notes, open one, start a new run with its settings, compare several, delete old ones.&lt;/li&gt;&lt;li&gt;Runs live in the workspace folder (File → Set workspace folder); File → Open run reopens one, and Start (F5) continues an interrupted run.&lt;/li&gt;&lt;/ol&gt;&lt;p&gt;Help → Keyboard shortcuts (Ctrl+/) lists every key.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Kom i gang&lt;/h3&gt;&lt;ol&gt;&lt;li&gt;&lt;b&gt;Hurtigstart&lt;/b&gt; (Ctrl+R, Trening-panelet) klargjør Debians fortune-sitater og trener en bitteliten modell på omtrent ett minutt: se tapet falle.&lt;/li&gt;&lt;li&gt;&lt;b&gt;Generering&lt;/b&gt; (Alt+4): skriv en ledetekst og generer tekst fra kjøringens beste sjekkpunkt.&lt;/li&gt;&lt;li&gt;&lt;b&gt;Oppmerksomhet&lt;/b&gt; (Alt+3): se hva hvert hode ser på, token for token.&lt;/li&gt;&lt;li&gt;&lt;b&gt;Din egen tekst&lt;/b&gt;: Datasett (Alt+1) → legg til tekstfiler, velg rensing og tokenisering, Klargjør, og så &lt;i&gt;Tren på det&lt;/i&gt;. Et datasett som ikke passer den åpne kjøringen, starter en ny kjøring.&lt;/li&gt;&lt;li&gt;&lt;b&gt;Eksperimenter&lt;/b&gt; (Alt+5): sveip konfigfelt over et rutenett og sammenlign cellene i én tabell; Kjør → Finn læringsrate (Ctrl+L, eller knappen i Trening-panelet) foreslår en rate.&lt;/li&gt;&lt;li&gt;&lt;b&gt;Kjøringer&lt;/b&gt; (Alt+6) lister alle kjøringer i arbeidsområdet med resultatene: gi kjøringer navn og notater, åpne én, start en ny kjøring med innstillingene fra en annen, sammenlign flere, slett gamle.&lt;/li&gt;&lt;li&gt;Kjøringer ligger i arbeidsområdemappen (Fil → Velg arbeidsområdemappe); Fil → Åpne kjøring åpner en igjen, og Start (F5) fortsetter en avbrutt kjøring.&lt;/li&gt;&lt;/ol&gt;&lt;p&gt;Hjelp → Hurtigtaster (Ctrl+/) lister alle taster.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Fil</translation>
    </message>
    <message>
        <source>&amp;New run</source>
        <translation>&amp;Ny kjøring</translation>
    </message>
    <message>
        <source>&amp;Open run…</source>
        <translation>Å&amp;pne kjøring…</translation>
    </message>
    <message>
        <source>Recent runs</source>
        <translation>Nylige kjøringer</translation>
    </message>
    <message>
        <source>Set &amp;workspace folder…</source>
        <translation>Velg &amp;arbeidsområdemappe…</translation>
    </message>
    <message>
        <source>Workspace folder</source>
        <translation>Arbeidsområdemappe</translation>
    </message>
    <message>
        <source>workspace: %1</source>
        <translation>arbeidsområde: %1</translation>
    </message>
    <message>
        <source>&amp;Export plots…</source>
        <translation>&amp;Eksporter plott…</translation>
    </message>
    <message>
        <source>Export &amp;model…</source>
        <translation>Eksporter &amp;modell…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>A&amp;vslutt</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>&amp;Kjør</translation>
    </message>
    <message>
        <source>&amp;Initialise from run (finetune)…</source>
        <translation>&amp;Initialiser fra kjøring (finjuster)…</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Vis</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Hjelp</translation>
    </message>
    <message>
        <source>&amp;Getting started</source>
        <translation>&amp;Kom i gang</translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts</source>
        <translation>&amp;Hurtigtaster</translation>
    </message>
    <message>
        <source>&amp;About / runtime</source>
        <translation>&amp;Om / kjøretid</translation>
    </message>
    <message>
        <source>&amp;System default</source>
        <translation>&amp;Systemstandard</translation>
    </message>
    <message>
        <source>&amp;English</source>
        <translation>&amp;English</translation>
    </message>
    <message>
        <source>Norsk &amp;bokmål</source>
        <translation>Norsk &amp;bokmål</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>Språk</translation>
    </message>
    <message>
        <source>The interface&apos;s language changes when Transformer Workbench starts again.</source>
        <translation>Grensesnittets språk endres når Transformer Workbench starter på nytt.</translation>
    </message>
    <message>
        <source>Open run folder</source>
        <translation>Åpne kjøringsmappe</translation>
    </message>
    <message>
        <source>Run whose weights start the new run</source>
        <translation>Kjøring med vektene som starter den nye kjøringen</translation>
    </message>
    <message>
        <source>Model exported to %1</source>
        <translation>Modell eksportert til %1</translation>
    </message>
    <message>
        <source>Export plots</source>
        <translation>Eksporter plott</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG image (*.svg);;CSV data (*.csv)</source>
        <translation>PNG-bilde (*.png);;SVG-bilde (*.svg);;CSV-data (*.csv)</translation>
    </message>
    <message>
        <source>exported %1</source>
        <translation>eksporterte %1</translation>
    </message>
    <message>
        <source>could not write %1</source>
        <translation>kunne ikke skrive %1</translation>
    </message>
    <message>
        <source>&amp;Import model…</source>
        <translation>&amp;Importer modell…</translation>
    </message>
    <message>
        <source>Model imported into %1</source>
        <translation>Modell importert til %1</translation>
    </message>
    <message>
        <source>In the forms, the mouse wheel changes a value only in the field that has the keyboard focus (click it first); elsewhere it scrolls.</source>
        <translation>I skjemaene endrer musehjulet en verdi bare i feltet som har tastaturfokus (klikk i det først); ellers ruller det.</translation>
    </message>
    <message>
        <source>Text size %1%</source>
        <translation>Tekststørrelse %1 %</translation>
    </message>
    <message>
        <source>&amp;Larger text</source>
        <translation>S&amp;tørre tekst</translation>
    </message>
    <message>
        <source>&amp;Smaller text</source>
        <translation>&amp;Mindre tekst</translation>
    </message>
    <message>
        <source>&amp;Normal text size</source>
        <translation>&amp;Normal tekststørrelse</translation>
    </message>
    <message>
        <source>&amp;Full screen</source>
        <translation>&amp;Fullskjerm</translation>
    </message>
    <message>
        <source>Copy report</source>
        <translation>Kopier rapporten</translation>
    </message>
    <message>
        <source>The runtime report is on the clipboard</source>
        <translation>Kjøretidsrapporten er på utklippstavlen</translation>
    </message>
    <message>
        <source>Restart now</source>
        <translation>Start på nytt nå</translation>
    </message>
    <message>
        <source>Later</source>
        <translation>Senere</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Transformer Workbench 0.1&lt;/h3&gt;&lt;p&gt;Train small transformer language models on your own text, watch them learn, look inside.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Transformer Workbench 0.1&lt;/h3&gt;&lt;p&gt;Tren små transformer-språkmodeller på din egen tekst, se dem lære, se inn i dem.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>The runtime report, for bug reports:</source>
        <translation>Kjøretidsrapporten, for feilrapporter (på engelsk):</translation>
    </message>
    <message>
        <source>Co&amp;mpare runs…</source>
        <translation>Sa&amp;mmenlign kjøringer…</translation>
    </message>
    <message>
        <source>Lan&amp;guage</source>
        <translation>S&amp;pråk</translation>
    </message>
    <message>
        <source>Training is running: stop it (Shift+F5) before opening another run.</source>
        <translation>Trening pågår: stopp den (Shift+F5) før du åpner en annen kjøring.</translation>
    </message>
    <message>
        <source>Overlay the validation loss of these runs or sweep cells on the open run&apos;s plot. Runs with different tokenizers are compared in bits per character.</source>
        <translation>Legg valideringstapet til disse kjøringene eller sveipcellene over plottet til den åpne kjøringen. Kjøringer med ulik tokenisering sammenlignes i bit per tegn.</translation>
    </message>
    <message>
        <source>Sweep cells</source>
        <translation>Sveipceller</translation>
    </message>
</context>
<context>
    <name>MetricsPlot</name>
    <message>
        <source>Loss</source>
        <translation>Tap</translation>
    </message>
    <message>
        <source>cross-entropy (nats)</source>
        <translation>kryssentropi (nats)</translation>
    </message>
    <message>
        <source>Validation accuracy</source>
        <translation>Valideringsnøyaktighet</translation>
    </message>
    <message>
        <source>Learning rate</source>
        <translation>Læringsrate</translation>
    </message>
    <message>
        <source>lr</source>
        <translation>lr</translation>
    </message>
    <message>
        <source>tokens/s</source>
        <translation>tokener/s</translation>
    </message>
    <message>
        <source>train (step)</source>
        <translation>trening</translation>
    </message>
    <message>
        <source>train (smoothed)</source>
        <translation>trening (glattet)</translation>
    </message>
    <message>
        <source>validation</source>
        <translation>validering</translation>
    </message>
    <message>
        <source>val BLEU (right axis)</source>
        <translation>val.-BLEU (høyre akse)</translation>
    </message>
    <message>
        <source>BLEU</source>
        <translation>BLEU</translation>
    </message>
    <message>
        <source>val accuracy</source>
        <translation>val.-nøyaktighet</translation>
    </message>
    <message>
        <source>step</source>
        <translation>steg</translation>
    </message>
    <message>
        <source>epoch</source>
        <translation>epoke</translation>
    </message>
    <message>
        <source>bits per character</source>
        <translation>bit per tegn</translation>
    </message>
    <message>
        <source>validation (%1)</source>
        <translation>validering (%1)</translation>
    </message>
    <message>
        <source>bits/char</source>
        <translation>bit/tegn</translation>
    </message>
    <message>
        <source>nats</source>
        <translation>nats</translation>
    </message>
    <message>
        <source>Validation only: the training loss is per token (Loss in: nats per token shows it)</source>
        <translation>Bare validering: treningstapet er per token (Tap i: nats per token viser det)</translation>
    </message>
    <message>
        <source>Accuracy</source>
        <translation>Nøyaktighet</translation>
    </message>
    <message>
        <source>LR</source>
        <translation>LR</translation>
    </message>
    <message>
        <source>Throughput (tokens/s)</source>
        <translation>Gjennomstrømning (tokens/s)</translation>
    </message>
    <message>
        <source>Tokens/s</source>
        <translation>Tokener/s</translation>
    </message>
    <message>
        <source>Loss · %1</source>
        <translation>Tap · %1</translation>
    </message>
</context>
<context>
    <name>ModelWorker</name>
    <message>
        <source>step %1</source>
        <translation>steg %1</translation>
    </message>
    <message>
        <source>%1 · step %2</source>
        <translation>%1 · steg %2</translation>
    </message>
    <message>
        <source>no run chosen; train one first or open a run folder</source>
        <translation>ingen kjøring valgt; tren en først eller åpne en kjøringsmappe</translation>
    </message>
    <message>
        <source>a target is for translation (encoder-decoder) runs; this run is a decoder LM</source>
        <translation>et mål er for oversettelseskjøringer (koder-dekoder); denne kjøringen er en dekoder-LM</translation>
    </message>
</context>
<context>
    <name>NegativeHint</name>
    <message>
        <source>This field takes no negative numbers: %1 to %2.</source>
        <translation>Dette feltet tar ingen negative tall: %1 til %2.</translation>
    </message>
</context>
<context>
    <name>ParallelTab</name>
    <message>
        <source>Pairs</source>
        <translation>Par</translation>
    </message>
    <message>
        <source>Two line-aligned files</source>
        <translation>To linjeparallelle filer</translation>
    </message>
    <message>
        <source>One TSV file, two columns</source>
        <translation>Én TSV-fil, to kolonner</translation>
    </message>
    <message>
        <source>Line N of the source file translates line N of the target file; or one tab-separated file with the two languages in two of its columns (Tatoeba: English, Bokmål, attribution)</source>
        <translation>Linje N i kildefilen oversetter linje N i målfilen; eller én tabulatorseparert fil med de to språkene i to av kolonnene (Tatoeba: engelsk, bokmål, kreditering)</translation>
    </message>
    <message>
        <source>Pairs from</source>
        <translation>Par fra</translation>
    </message>
    <message>
        <source>Source file</source>
        <translation>Kildefil</translation>
    </message>
    <message>
        <source>The training sentences in the source language</source>
        <translation>Treningssetningene på kildespråket</translation>
    </message>
    <message>
        <source>Target file</source>
        <translation>Målfil</translation>
    </message>
    <message>
        <source>Their translations, line by line</source>
        <translation>Oversettelsene deres, linje for linje</translation>
    </message>
    <message>
        <source>TSV file</source>
        <translation>TSV-fil</translation>
    </message>
    <message>
        <source>One pair per line, tab-separated columns</source>
        <translation>Ett par per linje, tabulatorseparerte kolonner</translation>
    </message>
    <message>
        <source>Optional: the corpus&apos;s official split. Without it the share below is held out of the training pairs</source>
        <translation>Valgfritt: korpusets offisielle inndeling. Uten den holdes andelen under utenfor treningsparene</translation>
    </message>
    <message>
        <source>Validation source</source>
        <translation>Valideringskilde</translation>
    </message>
    <message>
        <source>Validation target</source>
        <translation>Valideringsmål</translation>
    </message>
    <message>
        <source>Validation TSV</source>
        <translation>Validerings-TSV</translation>
    </message>
    <message>
        <source>Test source</source>
        <translation>Testkilde</translation>
    </message>
    <message>
        <source>Test target</source>
        <translation>Testmål</translation>
    </message>
    <message>
        <source>Test TSV</source>
        <translation>Test-TSV</translation>
    </message>
    <message>
        <source>source</source>
        <translation>kilde</translation>
    </message>
    <message>
        <source>target</source>
        <translation>mål</translation>
    </message>
    <message>
        <source>(0-based)</source>
        <translation>(fra 0)</translation>
    </message>
    <message>
        <source>Columns</source>
        <translation>Kolonner</translation>
    </message>
    <message>
        <source>Preparation</source>
        <translation>Klargjøring</translation>
    </message>
    <message>
        <source>e.g. de</source>
        <translation>f.eks. de</translation>
    </message>
    <message>
        <source>e.g. en</source>
        <translation>f.eks. en</translation>
    </message>
    <message>
        <source>Languages</source>
        <translation>Språk</translation>
    </message>
    <message>
        <source>One vocabulary, trained on both sides of the training pairs</source>
        <translation>Ett vokabular, trent på begge sider av treningsparene</translation>
    </message>
    <message>
        <source>Vocabulary size, specials included (bpe, unigram, word); byte ignores it</source>
        <translation>Vokabularstørrelse, spesialtokener medregnet (bpe, unigram, word); byte ser bort fra den</translation>
    </message>
    <message>
        <source>Share of the training pairs held out for validation when no validation file is given</source>
        <translation>Andel av treningsparene som holdes av til validering når ingen valideringsfil er gitt</translation>
    </message>
    <message>
        <source>Share of the training pairs held out for test when no test file is given</source>
        <translation>Andel av treningsparene som holdes av til test når ingen testfil er gitt</translation>
    </message>
    <message>
        <source>Held out: validation</source>
        <translation>Valideringsandel</translation>
    </message>
    <message>
        <source>Held out: test</source>
        <translation>Testandel</translation>
    </message>
    <message>
        <source>keep all</source>
        <translation>behold alle</translation>
    </message>
    <message>
        <source>Drop training pairs with a side longer than this many tokens (they are counted)</source>
        <translation>Forkast treningspar med en side lengre enn så mange tokener (de telles)</translation>
    </message>
    <message>
        <source>Max tokens per side</source>
        <translation>Maks tokener per side</translation>
    </message>
    <message>
        <source>Drop training pairs whose longer side has more than this many times the tokens of the shorter (misaligned pairs; they are counted)</source>
        <translation>Forkast treningspar der den lengste siden har mer enn så mange ganger tokenene til den korteste (feiljusterte par; de telles)</translation>
    </message>
    <message>
        <source>Max length ratio</source>
        <translation>Maks lengdeforhold</translation>
    </message>
    <message>
        <source>One vocabulary per language</source>
        <translation>Ett vokabular per språk</translation>
    </message>
    <message>
        <source>Train a tokenizer on each side alone (the encoder gets its own embedding); unticked: one vocabulary shared by both sides, as the paper</source>
        <translation>Tren en tokeniserer på hver side for seg (koderen får sin egen innbygging); ikke avkrysset: ett vokabular delt av begge sider, som i artikkelen</translation>
    </message>
    <message>
        <source>e.g. multi30k-de-en</source>
        <translation>f.eks. multi30k-de-en</translation>
    </message>
    <message>
        <source>Dataset name</source>
        <translation>Datasettnavn</translation>
    </message>
    <message>
        <source>Prepare pairs</source>
        <translation>Klargjør par</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>Bla gjennom…</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: train %2, validation %3, test %4 pairs; </source>
        <translation>&lt;b&gt;%1&lt;/b&gt;: trening %2, validering %3, test %4 par; </translation>
    </message>
    <message>
        <source>vocabularies: source %1, target %2</source>
        <translation>vokabularer: kilde %1, mål %2</translation>
    </message>
    <message>
        <source>one vocabulary of %1</source>
        <translation>ett vokabular på %1</translation>
    </message>
    <message>
        <source>&lt;br&gt;%1 training pairs dropped: a side over the token limit</source>
        <translation>&lt;br&gt;%1 treningspar forkastet: en side over tokengrensen</translation>
    </message>
    <message>
        <source>&lt;br&gt;%1 training pairs dropped: sides over the length ratio</source>
        <translation>&lt;br&gt;%1 treningspar forkastet: sider over lengdeforholdet</translation>
    </message>
    <message>
        <source>&lt;br&gt;source: %1&lt;br&gt;target: %2&lt;br&gt;%3 s</source>
        <translation>&lt;br&gt;kilde: %1&lt;br&gt;mål: %2&lt;br&gt;%3 s</translation>
    </message>
    <message>
        <source>choose the TSV file of pairs first</source>
        <translation>velg TSV-filen med par først</translation>
    </message>
    <message>
        <source>give both validation files (source and target), or neither</source>
        <translation>oppgi begge valideringsfilene (kilde og mål), eller ingen</translation>
    </message>
    <message>
        <source>give both test files (source and target), or neither</source>
        <translation>oppgi begge testfilene (kilde og mål), eller ingen</translation>
    </message>
    <message>
        <source>name the dataset first</source>
        <translation>gi datasettet et navn først</translation>
    </message>
    <message>
        <source>Choose both the source and the target file first.</source>
        <translation>Velg både kilde- og målfilen først.</translation>
    </message>
    <message>
        <source>Tokenizer</source>
        <translation>Tokenisering</translation>
    </message>
    <message>
        <source>Tokenize and write the parallel dataset (Ctrl+Return); as twb prepare --source/--target</source>
        <translation>Tokeniser og skriv det parallelle datasettet (Ctrl+Return); som twb prepare --source/--target</translation>
    </message>
</context>
<context>
    <name>PositionsView</name>
    <message>
        <source>dimension pair i</source>
        <translation>dimensjonspar i</translation>
    </message>
    <message>
        <source>θ_i (rad/position)</source>
        <translation>θ_i (rad/posisjon)</translation>
    </message>
    <message>
        <source>Show positions</source>
        <translation>Vis posisjoner</translation>
    </message>
    <message>
        <source>position</source>
        <translation>posisjon</translation>
    </message>
    <message>
        <source>Rotary positions (RoPE): each pair of query/key dimensions i is rotated by position·θ_i with θ_i = 10000^(−2i/d). The map shows cos(position·θ_i); the plot below the frequencies.</source>
        <translation>Rotary-posisjoner (RoPE): hvert par av spørrings-/nøkkeldimensjoner i roteres med posisjon·θ_i der θ_i = 10000^(−2i/d). Kartet viser cos(posisjon·θ_i); plottet under frekvensene.</translation>
    </message>
    <message>
        <source>Sinusoidal positions (Vaswani et al. 2017): sin on even, cos on odd dimensions, wavelengths growing geometrically across the embedding.</source>
        <translation>Sinusposisjoner (Vaswani m.fl. 2017): sin på partalls-, cos på oddetallsdimensjoner, med bølgelengder som vokser geometrisk over innbyggingen.</translation>
    </message>
    <message>
        <source>Learned positions: the rows of wpe, the position embedding table the model trained (values clipped to −1..1 in colour).</source>
        <translation>Lærte posisjoner: radene i wpe, posisjonsinnbyggingstabellen modellen trente (verdier klippet til −1..1 i farge).</translation>
    </message>
    <message>
        <source>Show positions draws this run&apos;s position scheme.</source>
        <translation>Vis posisjoner tegner denne kjøringens posisjonsskjema.</translation>
    </message>
    <message>
        <source>embedding dimension</source>
        <translation>innbyggingsdimensjon</translation>
    </message>
</context>
<context>
    <name>PreparedDatasets</name>
    <message>
        <source>Prepared datasets</source>
        <translation>Klargjorte datasett</translation>
    </message>
    <message>
        <source>Train on it</source>
        <translation>Tren på det</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Slett</translation>
    </message>
    <message>
        <source>source → target</source>
        <translation>kilde → mål</translation>
    </message>
    <message>
        <source>&lt;b&gt;Parallel&lt;/b&gt; (translation), %1&lt;br&gt;pairs: train %2, val %3, test %4&lt;br&gt;%5 tokenizer, one vocabulary of %6</source>
        <translation>&lt;b&gt;Parallelt&lt;/b&gt; (oversettelse), %1&lt;br&gt;par: trening %2, val. %3, test %4&lt;br&gt;%5-tokenisering, ett vokabular på %6</translation>
    </message>
    <message>
        <source>%1 tokenizer&lt;br&gt;vocabulary %2&lt;br&gt;train %3,&lt;br&gt;val %4 tokens&lt;br&gt;%5 characters&amp;nbsp;a&amp;nbsp;token</source>
        <translation>%1-tokenisering&lt;br&gt;vokabular %2&lt;br&gt;trening %3,&lt;br&gt;val. %4 tokener&lt;br&gt;%5 tegn&amp;nbsp;per&amp;nbsp;token</translation>
    </message>
    <message>
        <source> (pairs)</source>
        <translation> (par)</translation>
    </message>
    <message>
        <source>%1 is not a prepared dataset; nothing deleted.</source>
        <translation>%1 er ikke et klargjort datasett; ingenting slettet.</translation>
    </message>
    <message>
        <source>Delete dataset</source>
        <translation>Slett datasett</translation>
    </message>
    <message>
        <source>Delete %1 and its token files? Runs trained on it keep their own tokenizer copy and still sample, but cannot continue training.</source>
        <translation>Slette %1 og tokenfilene? Kjøringer trent på det beholder sin egen kopi av tokeniseringen og kan fortsatt generere, men ikke trene videre.</translation>
    </message>
    <message>
        <source>Could not delete all of %1; check permissions.</source>
        <translation>Kunne ikke slette hele %1; sjekk tilgangene.</translation>
    </message>
    <message>
        <source>&lt;b&gt;Chat&lt;/b&gt; (instruction tuning), template %1&lt;br&gt;%2 tokenizer, vocabulary %3&lt;br&gt;%4 replies to learn in train, %5 in val</source>
        <translation>&lt;b&gt;Chat&lt;/b&gt; (instruksjonstrening), mal %1&lt;br&gt;%2-tokenisering, vokabular %3&lt;br&gt;%4 svar å lære i trening, %5 i validering</translation>
    </message>
    <message>
        <source> (chat)</source>
        <translation> (chat)</translation>
    </message>
</context>
<context>
    <name>QFileDialog</name>
    <message>
        <source>%1
Directory not found.
Please verify the correct directory name was given.</source>
        <translation>%1
Fant ikke mappen.
Kontroller at mappenavnet er riktig.</translation>
    </message>
    <message>
        <source>%1
File not found.
Please verify the correct file name was given.</source>
        <translation>%1
Fant ikke filen.
Kontroller at filnavnet er riktig.</translation>
    </message>
    <message>
        <source>%1 File</source>
        <translation>%1-fil</translation>
    </message>
    <message>
        <source>%1 already exists.
Do you want to replace it?</source>
        <translation>%1 finnes allerede.
Vil du erstatte den?</translation>
    </message>
    <message>
        <source>&amp;Choose</source>
        <translation>&amp;Velg</translation>
    </message>
    <message>
        <source>&amp;Delete</source>
        <translation>&amp;Slett</translation>
    </message>
    <message>
        <source>&amp;New Folder</source>
        <translation>&amp;Ny mappe</translation>
    </message>
    <message>
        <source>&amp;Open</source>
        <translation>&amp;Åpne</translation>
    </message>
    <message>
        <source>&amp;Rename</source>
        <translation>&amp;Gi nytt navn</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>&amp;Lagre</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is write protected.
Do you want to delete it anyway?</source>
        <translation>«%1» er skrivebeskyttet.
Vil du slette den likevel?</translation>
    </message>
    <message>
        <source>All Files (*)</source>
        <translation>Alle filer (*)</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>Alle filer (*)</translation>
    </message>
    <message>
        <source>Are you sure you want to delete &apos;%1&apos;?</source>
        <translation>Er du sikker på at du vil slette «%1»?</translation>
    </message>
    <message>
        <source>Back</source>
        <translation>Tilbake</translation>
    </message>
    <message>
        <source>Change to detail view mode</source>
        <translation>Bytt til detaljvisning</translation>
    </message>
    <message>
        <source>Change to list view mode</source>
        <translation>Bytt til listevisning</translation>
    </message>
    <message>
        <source>Could not delete directory.</source>
        <translation>Kunne ikke slette mappen.</translation>
    </message>
    <message>
        <source>Create New Folder</source>
        <translation>Lag ny mappe</translation>
    </message>
    <message>
        <source>Create a New Folder</source>
        <translation>Lag en ny mappe</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Slett</translation>
    </message>
    <message>
        <source>Detail View</source>
        <translation>Detaljvisning</translation>
    </message>
    <message>
        <source>Directories</source>
        <translation>Mapper</translation>
    </message>
    <message>
        <source>Directory:</source>
        <translation>Mappe:</translation>
    </message>
    <message>
        <source>Drive</source>
        <translation>Stasjon</translation>
    </message>
    <message>
        <source>File</source>
        <translation>Fil</translation>
    </message>
    <message>
        <source>File &amp;name:</source>
        <translation>Fil&amp;navn:</translation>
    </message>
    <message>
        <source>File Folder</source>
        <translation>Filmappe</translation>
    </message>
    <message>
        <source>Files</source>
        <translation>Filer</translation>
    </message>
    <message>
        <source>Files of type:</source>
        <translation>Filer av typen:</translation>
    </message>
    <message>
        <source>Find Directory</source>
        <translation>Finn mappe</translation>
    </message>
    <message>
        <source>Folder</source>
        <translation>Mappe</translation>
    </message>
    <message>
        <source>Forward</source>
        <translation>Fram</translation>
    </message>
    <message>
        <source>Go back</source>
        <translation>Gå tilbake</translation>
    </message>
    <message>
        <source>Go forward</source>
        <translation>Gå fram</translation>
    </message>
    <message>
        <source>Go to the parent directory</source>
        <translation>Gå til overordnet mappe</translation>
    </message>
    <message>
        <source>List View</source>
        <translation>Listevisning</translation>
    </message>
    <message>
        <source>List of places and bookmarks</source>
        <translation>Liste over steder og bokmerker</translation>
    </message>
    <message>
        <source>Look in:</source>
        <translation>Se i:</translation>
    </message>
    <message>
        <source>My Computer</source>
        <translation>Min datamaskin</translation>
    </message>
    <message>
        <source>New Folder</source>
        <translation>Ny mappe</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>Åpne</translation>
    </message>
    <message>
        <source>Parent Directory</source>
        <translation>Overordnet mappe</translation>
    </message>
    <message>
        <source>Recent Places</source>
        <translation>Nylige steder</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Fjern</translation>
    </message>
    <message>
        <source>Save As</source>
        <translation>Lagre som</translation>
    </message>
    <message>
        <source>Shortcut</source>
        <translation>Snarvei</translation>
    </message>
    <message>
        <source>Show &amp;hidden files</source>
        <translation>Vis &amp;skjulte filer</translation>
    </message>
    <message>
        <source>Sidebar</source>
        <translation>Sidepanel</translation>
    </message>
    <message>
        <source>Unknown</source>
        <translation>Ukjent</translation>
    </message>
</context>
<context>
    <name>QFileSystemModel</name>
    <message>
        <source>&lt;b&gt;The name &quot;%1&quot; cannot be used.&lt;/b&gt;&lt;p&gt;Try using another name, with fewer characters or no punctuation marks.</source>
        <translation>&lt;b&gt;Navnet «%1» kan ikke brukes.&lt;/b&gt;&lt;p&gt;Prøv et annet navn, med færre tegn eller uten skilletegn.</translation>
    </message>
    <message>
        <source>Computer</source>
        <translation>Datamaskin</translation>
    </message>
    <message>
        <source>Date Modified</source>
        <translation>Endret</translation>
    </message>
    <message>
        <source>Invalid filename</source>
        <translation>Ugyldig filnavn</translation>
    </message>
    <message>
        <source>My Computer</source>
        <translation>Min datamaskin</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Navn</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Størrelse</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Type</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>Art</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>installed</source>
        <translation>installert</translation>
    </message>
    <message>
        <source>missing</source>
        <translation>mangler</translation>
    </message>
    <message>
        <source>downloaded</source>
        <translation>lastet ned</translation>
    </message>
    <message>
        <source>not downloaded</source>
        <translation>ikke lastet ned</translation>
    </message>
    <message>
        <source>Preview of the first %1 characters: %2 lines changed, %3 removed, %4 characters changed, %5 characters %6%7</source>
        <translation>Forhåndsvisning av de første %1 tegnene: %2 linjer endret, %3 fjernet, %4 tegn endret, %5 tegn %6%7</translation>
    </message>
    <message>
        <source>fewer</source>
        <translation>færre</translation>
    </message>
    <message>
        <source>more</source>
        <translation>flere</translation>
    </message>
    <message>
        <source>mean %1, max %2 tokens</source>
        <translation>snitt %1, maks %2 tokener</translation>
    </message>
    <message>
        <source>0-based column index, as twb prepare --source-column/--target-column</source>
        <translation>Kolonneindeks fra 0, som twb prepare --source-column/--target-column</translation>
    </message>
    <message>
        <source>characters</source>
        <translation>tegn</translation>
    </message>
    <message>
        <source>bytes</source>
        <translation>byte</translation>
    </message>
    <message>
        <source>words</source>
        <translation>ord</translation>
    </message>
    <message>
        <source>sentencepiece BPE</source>
        <translation>sentencepiece BPE</translation>
    </message>
    <message>
        <source>sentencepiece unigram</source>
        <translation>sentencepiece unigram</translation>
    </message>
    <message>
        <source>byte-level BPE</source>
        <translation>byte-nivå BPE</translation>
    </message>
    <message>
        <source>%1 of %2 evaluations</source>
        <translation>%1 av %2 evalueringer</translation>
    </message>
    <message>
        <source>failed with an unknown error</source>
        <translation>mislyktes med en ukjent feil</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG (*.svg)</source>
        <translation>PNG-bilde (*.png);;SVG (*.svg)</translation>
    </message>
    <message>
        <source>Cannot write %1: check the folder exists and is writable.</source>
        <translation>Kan ikke skrive %1: sjekk at mappen finnes og er skrivbar.</translation>
    </message>
    <message>
        <source>no checkpoint</source>
        <translation>intet sjekkpunkt</translation>
    </message>
    <message>
        <source>GGUF (llama.cpp, gpt2), f16 matrices</source>
        <translation>GGUF (llama.cpp, gpt2), f16-matriser</translation>
    </message>
    <message>
        <source>GGUF (llama.cpp, gpt2), f32</source>
        <translation>GGUF (llama.cpp, gpt2), f32</translation>
    </message>
    <message>
        <source>GGUF v3, step %1, %2 tensors, %3 tokens, %4 MB</source>
        <translation>GGUF v3, steg %1, %2 tensorer, %3 tokener, %4 MB</translation>
    </message>
    <message>
        <source>safetensors + config.json (any architecture)</source>
        <translation>safetensors + config.json (alle arkitekturer)</translation>
    </message>
    <message>
        <source>%1: %2%3</source>
        <translation>%1: %2%3</translation>
    </message>
    <message>
        <source>finished</source>
        <translation>ferdig</translation>
    </message>
    <message>
        <source>running</source>
        <translation>kjører</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>Bla gjennom…</translation>
    </message>
    <message>
        <source>CSV (*.csv);;JSON (*.json);;PNG image (*.png);;SVG (*.svg)</source>
        <translation>CSV (*.csv);;JSON (*.json);;PNG-bilde (*.png);;SVG (*.svg)</translation>
    </message>
    <message>
        <source>Hugging Face folder for transformers (GPT-2; Marian for translation)</source>
        <translation>Hugging Face-mappe for transformers (GPT-2; Marian for oversettelse)</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>stoppet</translation>
    </message>
    <message>
        <source>No run chosen: choose one on the Attention tab.</source>
        <translation>Ingen kjøring valgt: velg en på Oppmerksomhetsfanen.</translation>
    </message>
    <message>
        <source>Run &lt;b&gt;%1&lt;/b&gt;, checkpoint %2 (chosen on the Attention tab)</source>
        <translation>Kjøring &lt;b&gt;%1&lt;/b&gt;, sjekkpunkt %2 (valgt på Oppmerksomhetsfanen)</translation>
    </message>
    <message>
        <source>%1 · %2, translation</source>
        <translation>%1 · %2, oversettelse</translation>
    </message>
    <message>
        <source>best</source>
        <translation>beste</translation>
    </message>
    <message>
        <source>last</source>
        <translation>siste</translation>
    </message>
    <message>
        <source>step %1</source>
        <translation>steg %1</translation>
    </message>
    <message>
        <source>damaged</source>
        <translation>skadet</translation>
    </message>
    <message>
        <source>The run folder %1 is gone (moved or deleted): open it where it is now (File → Open run, Ctrl+O), or start a new run (Ctrl+N).</source>
        <translation>Kjøringsmappa %1 er borte (flyttet eller slettet): åpne den der den er nå (Fil → Åpne kjøring, Ctrl+O), eller start en ny kjøring (Ctrl+N).</translation>
    </message>
    <message>
        <source>The workspace folder %1 does not exist (is it on a drive that is not mounted?).</source>
        <translation>Arbeidsområdemappa %1 finnes ikke (ligger den på en disk som ikke er montert?).</translation>
    </message>
    <message>
        <source>The workspace %1 is a file, not a folder.</source>
        <translation>Arbeidsområdet %1 er en fil, ikke en mappe.</translation>
    </message>
    <message>
        <source>Workspace folder</source>
        <translation>Arbeidsområdemappe</translation>
    </message>
    <message>
        <source>Your runs and datasets live in the workspace folder. Nothing has been created or changed yet.</source>
        <translation>Kjøringene og datasettene dine ligger i arbeidsområdemappa. Ingenting er opprettet eller endret ennå.</translation>
    </message>
    <message>
        <source>Create it</source>
        <translation>Opprett den</translation>
    </message>
    <message>
        <source>Choose another folder…</source>
        <translation>Velg en annen mappe…</translation>
    </message>
    <message>
        <source>Use the default folder</source>
        <translation>Bruk standardmappa</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>Avslutt</translation>
    </message>
    <message>
        <source>%1 cannot be created; the default folder is used.</source>
        <translation>%1 kan ikke opprettes; standardmappa brukes.</translation>
    </message>
    <message>
        <source>imported</source>
        <translation>importert</translation>
    </message>
</context>
<context>
    <name>QPlatformTheme</name>
    <message>
        <source>OK</source>
        <translation>OK</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>Lagre</translation>
    </message>
    <message>
        <source>Save All</source>
        <translation>Lagre alle</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>Åpne</translation>
    </message>
    <message>
        <source>&amp;Yes</source>
        <translation>&amp;Ja</translation>
    </message>
    <message>
        <source>Yes to &amp;All</source>
        <translation>Ja til &amp;alle</translation>
    </message>
    <message>
        <source>&amp;No</source>
        <translation>&amp;Nei</translation>
    </message>
    <message>
        <source>N&amp;o to All</source>
        <translation>N&amp;ei til alle</translation>
    </message>
    <message>
        <source>Abort</source>
        <translation>Avbryt</translation>
    </message>
    <message>
        <source>Retry</source>
        <translation>Prøv igjen</translation>
    </message>
    <message>
        <source>Ignore</source>
        <translation>Ignorer</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Lukk</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Avbryt</translation>
    </message>
    <message>
        <source>Discard</source>
        <translation>Forkast</translation>
    </message>
    <message>
        <source>Help</source>
        <translation>Hjelp</translation>
    </message>
    <message>
        <source>Apply</source>
        <translation>Bruk</translation>
    </message>
    <message>
        <source>Reset</source>
        <translation>Tilbakestill</translation>
    </message>
    <message>
        <source>Restore Defaults</source>
        <translation>Gjenopprett standard</translation>
    </message>
</context>
<context>
    <name>ResultsTable</name>
    <message>
        <source>Double-click a row to open its run in the Training panel; right-click for more</source>
        <translation>Dobbeltklikk en rad for å åpne kjøringen i Trening-panelet; høyreklikk for mer</translation>
    </message>
    <message>
        <source>Open in %1</source>
        <translation>Åpne i %1</translation>
    </message>
    <message>
        <source>Remove cell (delete its run folder)</source>
        <translation>Fjern celle (slett kjøringsmappen)</translation>
    </message>
</context>
<context>
    <name>RunPicker</name>
    <message>
        <source>Checkpoint: best (lowest validation loss), last, or any saved step</source>
        <translation>Sjekkpunkt: beste (lavest valideringstap), siste, eller et hvilket som helst lagret steg</translation>
    </message>
    <message>
        <source>…</source>
        <translation>…</translation>
    </message>
    <message>
        <source>Open a run folder from anywhere (CLI runs too)</source>
        <translation>Åpne en kjøringsmappe fra hvor som helst (også kjøringer fra CLI)</translation>
    </message>
    <message>
        <source>⟳</source>
        <translation>⟳</translation>
    </message>
    <message>
        <source>Re-read runs and checkpoints</source>
        <translation>Les kjøringer og sjekkpunkter på nytt</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Kjøring</translation>
    </message>
    <message>
        <source>Checkpoint</source>
        <translation>Sjekkpunkt</translation>
    </message>
    <message>
        <source>Open run folder</source>
        <translation>Åpne kjøringsmappe</translation>
    </message>
    <message>
        <source>last (%1)</source>
        <translation>siste (%1)</translation>
    </message>
    <message>
        <source>step %1</source>
        <translation>steg %1</translation>
    </message>
    <message>
        <source>best (step %1)</source>
        <translation>beste (steg %1)</translation>
    </message>
    <message>
        <source>%1 (folder gone)</source>
        <translation>%1 (mappa er borte)</translation>
    </message>
    <message>
        <source>%1 (in %2)</source>
        <translation>%1 (i %2)</translation>
    </message>
</context>
<context>
    <name>RunsPanel</name>
    <message>
        <source>Open</source>
        <translation>Åpne</translation>
    </message>
    <message>
        <source>Open the run in the Training panel (Enter or double click)</source>
        <translation>Åpne kjøringen i Trening-panelet (Enter eller dobbeltklikk)</translation>
    </message>
    <message>
        <source>Duplicate config</source>
        <translation>Dupliser konfig</translation>
    </message>
    <message>
        <source>A new run in the Training panel with this run&apos;s settings (Ctrl+D)</source>
        <translation>En ny kjøring i Trening-panelet med denne kjøringens innstillinger (Ctrl+D)</translation>
    </message>
    <message>
        <source>Compare selected</source>
        <translation>Sammenlign valgte</translation>
    </message>
    <message>
        <source>Overlay the selected runs&apos; validation curves in the Training panel (Ctrl+M)</source>
        <translation>Legg valideringskurvene til de valgte kjøringene over hverandre i Trening-panelet (Ctrl+M)</translation>
    </message>
    <message>
        <source>Delete…</source>
        <translation>Slett…</translation>
    </message>
    <message>
        <source>Delete the selected runs and their checkpoints (Delete); asks first</source>
        <translation>Slett de valgte kjøringene og sjekkpunktene deres (Delete); spør først</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>Oppdater</translation>
    </message>
    <message>
        <source>Selected run</source>
        <translation>Valgt kjøring</translation>
    </message>
    <message>
        <source>a name to tell this run apart (F2)</source>
        <translation>et navn som skiller denne kjøringen fra andre (F2)</translation>
    </message>
    <message>
        <source>what you tried, what you saw</source>
        <translation>hva du prøvde, hva du så</translation>
    </message>
    <message>
        <source>Save name and notes</source>
        <translation>Lagre navn og notater</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Navn</translation>
    </message>
    <message>
        <source>Notes</source>
        <translation>Notater</translation>
    </message>
    <message>
        <source>Folder</source>
        <translation>Mappe</translation>
    </message>
    <message>
        <source>Rename the selected run</source>
        <translation>Gi den valgte kjøringen nytt navn</translation>
    </message>
    <message>
        <source>Duplicate</source>
        <translation>Dupliser</translation>
    </message>
    <message>
        <source>Refresh the list</source>
        <translation>Oppdater listen</translation>
    </message>
    <message>
        <source>Delete the selected runs (in the list)</source>
        <translation>Slett de valgte kjøringene (i listen)</translation>
    </message>
    <message>
        <source>No runs yet in %1. Quick start (Ctrl+R) in the Training panel makes one.</source>
        <translation>Ingen kjøringer ennå i %1. Hurtigstart (Ctrl+R) i Trening-panelet lager en.</translation>
    </message>
    <message>
        <source>1 run in %1</source>
        <translation>1 kjøring i %1</translation>
    </message>
    <message>
        <source>%1 runs in %2</source>
        <translation>%1 kjøringer i %2</translation>
    </message>
    <message>
        <source> · %1 running</source>
        <translation> · %1 kjører</translation>
    </message>
    <message>
        <source>unnamed (%1); a name to tell it apart (F2)</source>
        <translation>uten navn (%1); et navn som skiller den fra andre (F2)</translation>
    </message>
    <message>
        <source>saved the name and notes of %1</source>
        <translation>lagret navnet og notatene til %1</translation>
    </message>
    <message>
        <source>%1 is being trained (by %2): stop its training before deleting it.</source>
        <translation>%1 trenes (av %2): stopp treningen før du sletter den.</translation>
    </message>
    <message>
        <source>Delete run</source>
        <translation>Slett kjøring</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Slett</translation>
    </message>
    <message>
        <source>deleted %1</source>
        <translation>slettet %1</translation>
    </message>
    <message>
        <source>%1 is being trained: stop its training before deleting it.</source>
        <translation>%1 trenes: stopp treningen før du sletter den.</translation>
    </message>
    <message>
        <source>Delete runs</source>
        <translation>Slett kjøringer</translation>
    </message>
    <message>
        <source>Export to TensorBoard</source>
        <translation>Eksporter til TensorBoard</translation>
    </message>
    <message>
        <source>Write the selected runs&apos; curves and config as TensorBoard event files in each run&apos;s tb/ folder, from metrics.csv (runs write them as they train unless tensorboard=false); view them with tensorboard --logdir on the runs folder</source>
        <translation>Skriv kurvene og konfigen til de valgte kjøringene som TensorBoard-hendelsesfiler i hver kjørings tb/-mappe, fra metrics.csv (kjøringer skriver dem mens de trener med mindre tensorboard=false); vis dem med tensorboard --logdir på kjøringsmappen</translation>
    </message>
    <message>
        <source>Exporting to TensorBoard</source>
        <translation>Eksporterer til TensorBoard</translation>
    </message>
    <message>
        <source>Read the workspace&apos;s runs again (Ctrl+Shift+L)</source>
        <translation>Les arbeidsområdets kjøringer på nytt (Ctrl+Shift+L)</translation>
    </message>
    <message>
        <source>Stored in the run folder&apos;s run.json (Ctrl+Return); twb label shows and sets them too</source>
        <translation>Lagret i kjøringsmappens run.json (Ctrl+Return); twb label viser og setter dem også</translation>
    </message>
    <message>
        <source>wrote TensorBoard files for 1 run; view them with: tensorboard --logdir %1</source>
        <translation>skrev TensorBoard-filer for 1 kjøring; vis dem med: tensorboard --logdir %1</translation>
    </message>
    <message>
        <source>wrote TensorBoard files for %1 runs; view them with: tensorboard --logdir %2</source>
        <translation>skrev TensorBoard-filer for %1 kjøringer; vis dem med: tensorboard --logdir %2</translation>
    </message>
    <message>
        <source>%1 is being trained in this window: stop it in the Training panel (Shift+F5) before deleting it.</source>
        <translation>%1 trenes i dette vinduet: stopp den i Trening-panelet (Shift+F5) før du sletter den.</translation>
    </message>
    <message>
        <source>%1/run.json is damaged (%2), so the run&apos;s name and notes cannot be shown or saved: fix the file by hand or delete it (it holds only the name, notes and creation date).</source>
        <translation>%1/run.json er skadet (%2), så kjøringens navn og notater kan ikke vises eller lagres: rett filen for hånd eller slett den (den inneholder bare navnet, notatene og opprettelsesdatoen).</translation>
    </message>
    <message>
        <source>name unreadable: run.json is damaged</source>
        <translation>navnet kan ikke leses: run.json er skadet</translation>
    </message>
    <message>
        <source>Sweep cells</source>
        <translation>Sveipceller</translation>
    </message>
    <message>
        <source>List the Experiments panel&apos;s sweep cells too, each named after its sweep: &quot;sweep-… / 000_learning_rate=0.001&quot;</source>
        <translation>Vis også Eksperimenter-panelets sveipceller, hver navngitt etter sveipet sitt: «sweep-… / 000_learning_rate=0.001»</translation>
    </message>
    <message>
        <source> · 1 sweep cell</source>
        <translation> · 1 sveipcelle</translation>
    </message>
    <message>
        <source> · %1 sweep cells</source>
        <translation> · %1 sveipceller</translation>
    </message>
    <message>
        <source>Delete the run “%1” with its checkpoints, curves and samples?

%2</source>
        <translation>Slette kjøringen «%1» med sjekkpunkter, kurver og prøver?

%2</translation>
    </message>
    <message>
        <source>Delete these %1 runs with their checkpoints, curves and samples?

%2</source>
        <translation>Slette disse %1 kjøringene med sjekkpunkter, kurver og prøver?

%2</translation>
    </message>
    <message>
        <source>Filter runs (Ctrl+F)</source>
        <translation>Filtrer kjøringer (Ctrl+F)</translation>
    </message>
    <message>
        <source>Show only the runs whose name, folder, dataset, notes or status hold every word typed here (Escape clears it)</source>
        <translation>Vis bare kjøringene der navn, mappe, datasett, notater eller status inneholder hvert ord som skrives her (Escape tømmer feltet)</translation>
    </message>
    <message>
        <source>Filter the runs</source>
        <translation>Filtrer kjøringene</translation>
    </message>
    <message>
        <source> · none matches “%1”</source>
        <translation> · ingen samsvarer med «%1»</translation>
    </message>
    <message>
        <source> · %1 of %2 shown</source>
        <translation> · %1 av %2 vises</translation>
    </message>
    <message>
        <source>Clear the filter</source>
        <translation>Tøm filteret</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>Sammenlign</translation>
    </message>
    <message>
        <source>TensorBoard…</source>
        <translation>TensorBoard…</translation>
    </message>
</context>
<context>
    <name>RunsTableModel</name>
    <message>
        <source>%1 of %2</source>
        <translation>%1 av %2</translation>
    </message>
    <message>
        <source>%1
%2</source>
        <translation>%1
%2</translation>
    </message>
    <message>
        <source>Bits per character at the last evaluation: the loss in units that compare character and BPE runs fairly.</source>
        <translation>Bit per tegn ved siste evaluering: tapet i en enhet som sammenligner tegn- og BPE-kjøringer rettferdig.</translation>
    </message>
    <message>
        <source>A trainer is writing this run now.</source>
        <translation>En trener skriver til denne kjøringen nå.</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Navn</translation>
    </message>
    <message>
        <source>Dataset</source>
        <translation>Datasett</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modell</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>Parametere</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>Steg</translation>
    </message>
    <message>
        <source>Best val loss</source>
        <translation>Beste val.-tap</translation>
    </message>
    <message>
        <source>Bits/char</source>
        <translation>Bit/tegn</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>Opprettet</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Final val loss</source>
        <translation>Siste val.-tap</translation>
    </message>
    <message>
        <source>Accuracy %</source>
        <translation>Nøyaktighet %</translation>
    </message>
    <message>
        <source>Perplexity</source>
        <translation>Perpleksitet</translation>
    </message>
    <message>
        <source>Tokens/s</source>
        <translation>Tokener/s</translation>
    </message>
    <message>
        <source>Time (s)</source>
        <translation>Tid (s)</translation>
    </message>
    <message>
        <source>Cell</source>
        <translation>Celle</translation>
    </message>
    <message>
        <source>layers × heads × embedding width</source>
        <translation>lag × hoder × innbyggingsbredde</translation>
    </message>
    <message>
        <source>Validation loss, in nats per token (lower is better)</source>
        <translation>Valideringstap, i nats per token (lavere er bedre)</translation>
    </message>
    <message>
        <source>Validation perplexity at the last evaluation</source>
        <translation>Valideringsperpleksitet ved siste evaluering</translation>
    </message>
    <message>
        <source>Stopped before its last step (a Stop, a crash or a closed window): open it and press Start (F5) to continue it.</source>
        <translation>Stoppet før siste steg (Stopp, en krasj eller et lukket vindu): åpne den og trykk Start (F5) for å fortsette den.</translation>
    </message>
    <message>
        <source>paused</source>
        <translation>på pause</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>Bits per character at the best evaluation (beside the best val loss): the loss in units that compare character and BPE runs fairly.</source>
        <translation>Bit per tegn ved den beste evalueringen (ved siden av beste valideringstap): tapet i en enhet som sammenligner tegn- og BPE-kjøringer rettferdig.</translation>
    </message>
    <message>
        <source>Best BLEU</source>
        <translation>Beste BLEU</translation>
    </message>
    <message>
        <source>A translation run&apos;s highest validation BLEU after step 0 (higher is better); with best_by=bleu its best checkpoint</source>
        <translation>Oversettelseskjøringens høyeste validerings-BLEU etter steg 0 (høyere er bedre); med best_by=bleu dens beste sjekkpunkt</translation>
    </message>
    <message>
        <source>So far: the last evaluation of a run that has not finished (a running cell&apos;s first one is at step 0)</source>
        <translation>Så langt: den siste evalueringen av en kjøring som ikke er ferdig (en celle som kjører, har sin første ved steg 0)</translation>
    </message>
</context>
<context>
    <name>RuntimeLabel</name>
    <message>
        <source>checking runtime…</source>
        <translation>sjekker kjøretid…</translation>
    </message>
    <message>
        <source>reference BLAS (slow!)</source>
        <translation>referanse-BLAS (tregt!)</translation>
    </message>
    <message>
        <source>%1 · %2 threads · %3 · %4</source>
        <translation>%1 · %2 tråder · %3 · %4</translation>
    </message>
    <message>
        <source>%1 threads</source>
        <translation>%1 tråder</translation>
    </message>
    <message>
        <source>%1 of %2 threads</source>
        <translation>%1 av %2 tråder</translation>
    </message>
    <message>
        <source>%1 · %2 · %3 · %4</source>
        <translation>%1 · %2 · %3 · %4</translation>
    </message>
    <message>
        <source>The training uses %1 thread(s) and %2 (its config&apos;s threads and dtype); the machine has %3.

%4</source>
        <translation>Treningen bruker %1 tråd(er) og %2 (konfigurasjonens threads og dtype); maskinen har %3.

%4</translation>
    </message>
</context>
<context>
    <name>SamplingPanel</name>
    <message>
        <source>No run to sample from: train one in the Training panel or open a run folder (…).</source>
        <translation>Ingen kjøring å generere fra: tren en i Trening-panelet eller åpne en kjøringsmappe (…).</translation>
    </message>
    <message>
        <source>generated</source>
        <translation>generert</translation>
    </message>
    <message>
        <source>loading…</source>
        <translation>laster…</translation>
    </message>
    <message>
        <source>Back at the original output.</source>
        <translation>Tilbake ved den opprinnelige utdataen.</translation>
    </message>
    <message>
        <source>%1 tokens · %2 tok/s</source>
        <translation>%1 tokener · %2 tok/s</translation>
    </message>
    <message>
        <source>Token #%1 %2: beam search keeps whole sequences, so it reports no per-token alternatives. Sample (beam width 1) to branch.</source>
        <translation>Token nr. %1 %2: strålesøk beholder hele sekvenser, så det gir ingen alternativer per token. Trekk (strålebredde 1) for å forgrene.</translation>
    </message>
    <message>
        <source>comparing (seed %1)…</source>
        <translation>sammenligner (frø %1)…</translation>
    </message>
    <message>
        <source>Export comparison</source>
        <translation>Eksporter sammenligning</translation>
    </message>
    <message>
        <source>Markdown (*.md)</source>
        <translation>Markdown (*.md)</translation>
    </message>
    <message>
        <source>Cannot write %1: check the folder exists and is writable.</source>
        <translation>Kan ikke skrive %1: sjekk at mappen finnes og er skrivbar.</translation>
    </message>
    <message>
        <source>Comparison written to %1</source>
        <translation>Sammenligning skrevet til %1</translation>
    </message>
    <message>
        <source>Generate</source>
        <translation>Generer</translation>
    </message>
    <message>
        <source>History</source>
        <translation>Historikk</translation>
    </message>
    <message>
        <source>Output copied</source>
        <translation>Utdata kopiert</translation>
    </message>
    <message>
        <source>Stop generating or translating</source>
        <translation>Stopp generering eller oversetting</translation>
    </message>
    <message>
        <source>Generate (Ctrl+Return)</source>
        <translation>Generer (Ctrl+Return)</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Stopp</translation>
    </message>
    <message>
        <source>Stop (Esc): ends within one token</source>
        <translation>Stopp (Esc): avslutter innen ett token</translation>
    </message>
    <message>
        <source>◀ Back</source>
        <translation>◀ Tilbake</translation>
    </message>
    <message>
        <source>Return to the output before the last branch</source>
        <translation>Gå tilbake til utdataen før siste forgrening</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>Kopier</translation>
    </message>
    <message>
        <source>Copy the prompt and output as plain text</source>
        <translation>Kopier ledeteksten og utdataen som ren tekst</translation>
    </message>
    <message>
        <source>Prompt (empty = start from nothing)</source>
        <translation>Ledetekst (tom = start fra ingenting)</translation>
    </message>
    <message>
        <source>Generated text appears here, each token tinted by its probability (green = likely, red = unlikely). Hover a token for its alternatives; click it, then click an alternative to branch.</source>
        <translation>Generert tekst vises her, hvert token farget etter sannsynligheten (grønt = sannsynlig, rødt = usannsynlig). Hold over et token for alternativene; klikk det, og klikk så et alternativ for å forgrene.</translation>
    </message>
    <message>
        <source>Click a generated token to see the alternatives the model weighed there.</source>
        <translation>Klikk et generert token for å se alternativene modellen veide der.</translation>
    </message>
    <message>
        <source>%1 tokens · %2 tok/s · step %3%4</source>
        <translation>%1 tokener · %2 tok/s · steg %3%4</translation>
    </message>
    <message>
        <source> · stopped</source>
        <translation> · stoppet</translation>
    </message>
    <message>
        <source>comparison stopped</source>
        <translation>sammenligning stoppet</translation>
    </message>
    <message>
        <source>comparison done</source>
        <translation>sammenligning ferdig</translation>
    </message>
    <message>
        <source>Chat</source>
        <translation>Chat</translation>
    </message>
    <message>
        <source>Generate, send the chat message, or translate in translation mode</source>
        <translation>Generer, send chatmeldingen, eller oversett i oversettelsesmodus</translation>
    </message>
    <message>
        <source>p = %1 at temperature %2</source>
        <translation>p = %1 ved temperatur %2</translation>
    </message>
    <message>
        <source>p = %1</source>
        <translation>p = %1</translation>
    </message>
    <message>
        <source>Token #%1 %2 (%3). Click an alternative to continue from it:</source>
        <translation>Token nr. %1 %2 (%3). Klikk et alternativ for å fortsette fra det:</translation>
    </message>
    <message>
        <source>Token #%1 of sample %2 %3 (%4). Branching works on sample 1.</source>
        <translation>Token nr. %1 i prøve %2 %3 (%4). Forgrening virker på prøve 1.</translation>
    </message>
    <message>
        <source>Nothing to export yet: press Compare first.</source>
        <translation>Ingenting å eksportere ennå: trykk Sammenlign først.</translation>
    </message>
    <message>
        <source>Generate from a prompt, token by token, and branch at any token</source>
        <translation>Generer fra en ledetekst, token for token, og forgrein ved et hvilket som helst token</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>Sammenlign</translation>
    </message>
    <message>
        <source>Compare checkpoints: the same prompt and seed at several steps of the run</source>
        <translation>Sammenlign sjekkpunkter: samme ledetekst og frø ved flere steg i kjøringen</translation>
    </message>
    <message>
        <source>The generations of this session, with their settings</source>
        <translation>Genereringene i denne økten, med innstillingene sine</translation>
    </message>
    <message>
        <source>Evaluate</source>
        <translation>Evaluer</translation>
    </message>
    <message>
        <source>Evaluate decoding settings: every prompt with each setting, scored (twb generate-eval)</source>
        <translation>Evaluer dekodingsoppsett: hver ledetekst med hvert oppsett, med poeng (twb generate-eval)</translation>
    </message>
    <message>
        <source>Chat with an instruction-tuned run (twb chat)</source>
        <translation>Chat med en instruksjonstrent kjøring (twb chat)</translation>
    </message>
    <message>
        <source>branch at token #%1: %2 → %3</source>
        <translation>forgrening ved token #%1: %2 → %3</translation>
    </message>
    <message>
        <source>Grey: never drawn.</source>
        <translation>Grå: trekkes aldri.</translation>
    </message>
    <message>
        <source>Fold the decoding settings away: the text takes the width (they still apply)</source>
        <translation>Legg dekodingsinnstillingene bort: teksten får bredden (de gjelder fortsatt)</translation>
    </message>
    <message>
        <source>Decoding</source>
        <translation>Dekoding</translation>
    </message>
    <message>
        <source>Show the decoding settings</source>
        <translation>Vis dekodingsinnstillingene</translation>
    </message>
</context>
<context>
    <name>SweepPlots</name>
    <message>
        <source>step</source>
        <translation>steg</translation>
    </message>
    <message>
        <source>validation loss</source>
        <translation>valideringstap</translation>
    </message>
    <message>
        <source>Final loss against</source>
        <translation>Siste tap mot</translation>
    </message>
    <message>
        <source>final validation loss</source>
        <translation>siste valideringstap</translation>
    </message>
    <message>
        <source>Each cell&apos;s final validation loss appears here when it has one</source>
        <translation>Hver celles endelige valideringstap vises her når den har et</translation>
    </message>
    <message>
        <source>%1 (training)</source>
        <translation>%1 (trening)</translation>
    </message>
    <message>
        <source>loss</source>
        <translation>tap</translation>
    </message>
    <message>
        <source>%1   (○ not finished: its last evaluation so far)</source>
        <translation>%1   (○ ikke ferdig: siste evaluering så langt)</translation>
    </message>
    <message>
        <source>val. loss</source>
        <translation>val.-tap</translation>
    </message>
    <message>
        <source>final loss</source>
        <translation>siste tap</translation>
    </message>
    <message>
        <source>a swept field, once a sweep has cells</source>
        <translation>et sveipet felt, når et sveip har celler</translation>
    </message>
    <message>
        <source>Each cell&apos;s validation loss is drawn here as the sweep trains</source>
        <translation>Hver celles valideringstap tegnes her mens sveipet trener</translation>
    </message>
</context>
<context>
    <name>SyntheticTab</name>
    <message>
        <source>write numbers least significant digit first</source>
        <translation>skriv tall med minst signifikante siffer først</translation>
    </message>
    <message>
        <source>Lets a left-to-right model produce the carry before the digit that needs it</source>
        <translation>Lar en modell som leser fra venstre mot høyre lage menten før sifferet som trenger den</translation>
    </message>
    <message>
        <source>Generate and import</source>
        <translation>Generer og importer</translation>
    </message>
    <message>
        <source>Task</source>
        <translation>Oppgave</translation>
    </message>
    <message>
        <source>Examples</source>
        <translation>Eksempler</translation>
    </message>
    <message>
        <source>Digits (addition)</source>
        <translation>Siffer (addisjon)</translation>
    </message>
    <message>
        <source>Shortest sequence</source>
        <translation>Korteste sekvens</translation>
    </message>
    <message>
        <source>Longest sequence</source>
        <translation>Lengste sekvens</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>Frø</translation>
    </message>
    <message>
        <source>One example per line, e.g. addition &lt;code&gt;123+456=579&lt;/code&gt;, reversed &lt;code&gt;321+654=9750&lt;/code&gt;; copy &lt;code&gt;cabd&amp;gt;cabd&lt;/code&gt;; reverse &lt;code&gt;cabd&amp;gt;dbac&lt;/code&gt;; sort &lt;code&gt;cabd&amp;gt;abcd&lt;/code&gt;. Tokenize with characters; the attention patterns of a model trained on them are easy to read. Instructions are records for a chat finetune, &lt;code&gt;{&quot;instruction&quot;: &quot;reverse: cabd&quot;, &quot;output&quot;: &quot;dbac&quot;}&lt;/code&gt;, handed to the Chat data tab.</source>
        <translation>Ett eksempel per linje, f.eks. addisjon &lt;code&gt;123+456=579&lt;/code&gt;, reversert &lt;code&gt;321+654=9750&lt;/code&gt;; kopi &lt;code&gt;cabd&amp;gt;cabd&lt;/code&gt;; reversering &lt;code&gt;cabd&amp;gt;dbac&lt;/code&gt;; sortering &lt;code&gt;cabd&amp;gt;abcd&lt;/code&gt;. Tokeniser med tegn; oppmerksomhetsmønstrene til en modell trent på dem er lette å lese. Instruksjonsoppgavene er poster for en samtalefinjustering, &lt;code&gt;{&quot;instruction&quot;: &quot;reverse: cabd&quot;, &quot;output&quot;: &quot;dbac&quot;}&lt;/code&gt;, som sendes videre til fanen Samtaledata.</translation>
    </message>
    <message>
        <source>addition</source>
        <translation>addisjon</translation>
    </message>
    <message>
        <source>copy</source>
        <translation>kopi</translation>
    </message>
    <message>
        <source>reverse</source>
        <translation>reversering</translation>
    </message>
    <message>
        <source>sort</source>
        <translation>sortering</translation>
    </message>
    <message>
        <source>instructions</source>
        <translation>instruksjoner</translation>
    </message>
</context>
<context>
    <name>TokenOutputView</name>
    <message>
        <source>&lt;p style=&quot;color:#666&quot;&gt;— sample %1 —&lt;/p&gt;</source>
        <translation>&lt;p style=&quot;color:#666&quot;&gt;— prøve %1 —&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;beam search: no per-token probabilities</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;strålesøk: ingen sannsynligheter per token</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; p = %2&lt;br&gt;</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; p = %2&lt;br&gt;</translation>
    </message>
    <message>
        <source>Outside top-k or top-p: the sampler never draws it at these settings; a click still continues from it</source>
        <translation>Utenfor top-k eller top-p: sampleren trekker den aldri med disse innstillingene; et klikk fortsetter likevel fra den</translation>
    </message>
    <message>
        <source>Drawn with p = %1 at these settings: top-k or top-p keeps %2 of the probability and shares it out among what it keeps</source>
        <translation>Trukket med p = %1 med disse innstillingene: top-k eller top-p beholder %2 av sannsynligheten og fordeler den på det som beholdes</translation>
    </message>
</context>
<context>
    <name>TokenizeTab</name>
    <message>
        <source>&lt;p&gt;%1 merges&lt;/p&gt;</source>
        <translation>&lt;p&gt;%1 sammenslåinger&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;%2 characters → %3 tokens&lt;br&gt;%4 characters per token&lt;br&gt;vocabulary %5 (%6 used)&lt;br&gt;unknown %7%&lt;br&gt;train %8 · val %9 tokens&lt;br&gt;%10 per %11: mean %12, max %13&lt;br&gt;most frequent: %14</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;%2 tegn → %3 tokener&lt;br&gt;%4 tegn per token&lt;br&gt;vokabular %5 (%6 brukt)&lt;br&gt;ukjente %7%&lt;br&gt;trening %8 · val. %9 tokener&lt;br&gt;%10 per %11: snitt %12, maks %13&lt;br&gt;hyppigste: %14</translation>
    </message>
    <message>
        <source>tokens</source>
        <translation>tokener</translation>
    </message>
    <message>
        <source>B: %1</source>
        <translation>B: %1</translation>
    </message>
    <message>
        <source>A: %1</source>
        <translation>A: %1</translation>
    </message>
    <message>
        <source>tokens per %1</source>
        <translation>tokener per %1</translation>
    </message>
    <message>
        <source>tokenizer</source>
        <translation>tokenisering</translation>
    </message>
    <message>
        <source>tokens per character</source>
        <translation>tokener per tegn</translation>
    </message>
    <message>
        <source>characters per token</source>
        <translation>tegn per token</translation>
    </message>
    <message>
        <source>vocabulary</source>
        <translation>vokabular</translation>
    </message>
    <message>
        <source>vocabulary used</source>
        <translation>vokabular brukt</translation>
    </message>
    <message>
        <source>unknown rate</source>
        <translation>andel ukjente</translation>
    </message>
    <message>
        <source>mean sequence length</source>
        <translation>snittlengde på sekvenser</translation>
    </message>
    <message>
        <source>longest sequence</source>
        <translation>lengste sekvens</translation>
    </message>
    <message>
        <source>Target vocabulary for words/BPE/unigram (characters and bytes ignore it)</source>
        <translation>Målstørrelse på vokabularet for ord/BPE/unigram (tegn og byte ser bort fra den)</translation>
    </message>
    <message>
        <source>shuffled documents</source>
        <translation>stokkede dokumenter</translation>
    </message>
    <message>
        <source>train tokenizer A</source>
        <translation>tren tokenisering A</translation>
    </message>
    <message>
        <source>Encode with the tokenizer of this prepared dataset or run instead of training one (twb prepare --tokenizer-from): for finetuning data</source>
        <translation>Kod med tokeniseringen til dette klargjorte datasettet eller denne kjøringen i stedet for å trene en (twb prepare --tokenizer-from): for finjusteringsdata</translation>
    </message>
    <message>
        <source>A prepared dataset or a run</source>
        <translation>Et klargjort datasett eller en kjøring</translation>
    </message>
    <message>
        <source>dataset name</source>
        <translation>datasettnavn</translation>
    </message>
    <message>
        <source>Tokenize &amp;&amp; inspect</source>
        <translation>Tokeniser og inspiser</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>Sammenlign</translation>
    </message>
    <message>
        <source>Tokenize the same text with the second tokenizer and show both side by side</source>
        <translation>Tokeniser den samme teksten med den andre tokeniseringen og vis begge side om side</translation>
    </message>
    <message>
        <source>Prepare dataset</source>
        <translation>Klargjør datasett</translation>
    </message>
    <message>
        <source>Write train.bin, val.bin, the tokenizer and meta.json into the workspace, as twb prepare does</source>
        <translation>Skriv train.bin, val.bin, tokeniseringen og meta.json inn i arbeidsområdet, slik twb prepare gjør</translation>
    </message>
    <message>
        <source>Tokenize to see statistics.</source>
        <translation>Tokeniser for å se statistikk.</translation>
    </message>
    <message>
        <source>Tokenizer</source>
        <translation>Tokenisering</translation>
    </message>
    <message>
        <source>Compare with</source>
        <translation>Sammenlign med</translation>
    </message>
    <message>
        <source>Or reuse</source>
        <translation>Eller gjenbruk</translation>
    </message>
    <message>
        <source>Validation share</source>
        <translation>Valideringsandel</translation>
    </message>
    <message>
        <source>Split</source>
        <translation>Inndeling</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Navn</translation>
    </message>
    <message>
        <source>tokens per line / document</source>
        <translation>tokener per linje / dokument</translation>
    </message>
    <message>
        <source>count</source>
        <translation>antall</translation>
    </message>
    <message>
        <source>The first tokens of the training split, boundaries in alternating colours; hover for ids</source>
        <translation>De første tokenene i treningsdelen, grenser i vekslende farger; hold over for id-er</translation>
    </message>
    <message>
        <source>search the vocabulary</source>
        <translation>søk i vokabularet</translation>
    </message>
    <message>
        <source>token</source>
        <translation>token</translation>
    </message>
    <message>
        <source>id</source>
        <translation>id</translation>
    </message>
    <message>
        <source>measure</source>
        <translation>mål</translation>
    </message>
    <message>
        <source>A</source>
        <translation>A</translation>
    </message>
    <message>
        <source>B</source>
        <translation>B</translation>
    </message>
    <message>
        <source>Vocabulary</source>
        <translation>Vokabular</translation>
    </message>
    <message>
        <source>Merges</source>
        <translation>Sammenslåinger</translation>
    </message>
    <message>
        <source>id %1 “%2” · seen %3 times</source>
        <translation>id %1 «%2» · sett %3 ganger</translation>
    </message>
    <message>
        <source>a prepared bytebpe dataset or a run</source>
        <translation>et klargjort bytebpe-datasett eller en kjøring</translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation>Velg…</translation>
    </message>
    <message>
        <source>A bytebpe dataset or run</source>
        <translation>Et bytebpe-datasett eller en kjøring</translation>
    </message>
    <message>
        <source>The quick brown fox</source>
        <translation>Den raske brune reven</translation>
    </message>
    <message>
        <source>Text to merge step by step</source>
        <translation>Tekst som slås sammen steg for steg</translation>
    </message>
    <message>
        <source>Show merges</source>
        <translation>Vis sammenslåinger</translation>
    </message>
    <message>
        <source>The first and last merges, and the sample merged from its bytes (Ctrl+M)</source>
        <translation>De første og siste sammenslåingene, og eksempelet slått sammen fra bytene (Ctrl+M)</translation>
    </message>
    <message>
        <source>Byte-level BPE only: its merge list and how a sample text is merged</source>
        <translation>Bare byte-nivå BPE: sammenslåingslisten og hvordan en eksempeltekst slås sammen</translation>
    </message>
    <message>
        <source>Tokenizer of</source>
        <translation>Tokenisering fra</translation>
    </message>
    <message>
        <source>Sample</source>
        <translation>Eksempel</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;First merges&lt;/b&gt;&lt;/p&gt;%1%2&lt;/table&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;Første sammenslåinger&lt;/b&gt;&lt;/p&gt;%1%2&lt;/table&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Last merges&lt;/b&gt;&lt;/p&gt;%1%2&lt;/table&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;Siste sammenslåinger&lt;/b&gt;&lt;/p&gt;%1%2&lt;/table&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;The sample, step by step&lt;/b&gt;&lt;/p&gt;%1&lt;tr&gt;&lt;td&gt;bytes&lt;/td&gt;&lt;td&gt;%2&lt;/td&gt;&lt;/tr&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;Eksempelet, steg for steg&lt;/b&gt;&lt;/p&gt;%1&lt;tr&gt;&lt;td&gt;byte&lt;/td&gt;&lt;td&gt;%2&lt;/td&gt;&lt;/tr&gt;</translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation>Tokener</translation>
    </message>
    <message>
        <source>Tokenized preview: the first tokens of the training split</source>
        <translation>Tokenisert forhåndsvisning: de første tokenene i treningsdelen</translation>
    </message>
    <message>
        <source>A vs B</source>
        <translation>A mot B</translation>
    </message>
    <message>
        <source>Tokenizer A against tokenizer B (Compare)</source>
        <translation>Tokenisering A mot tokenisering B (Sammenlign)</translation>
    </message>
    <message>
        <source>A BPE tokenizer&apos;s merges, and a sample merged step by step</source>
        <translation>En BPE-tokeniserings sammenslåinger, og et eksempel slått sammen steg for steg</translation>
    </message>
    <message>
        <source>Keep documents</source>
        <translation>Behold dokumenter</translation>
    </message>
    <message>
        <source>Each record, jsonl/csv row, line pair or paragraph becomes one document, one sequence &lt;bos&gt; … &lt;eos&gt;, for training with sequences = documents (twb prepare --documents); needs a tokenizer with &lt;bos&gt;/&lt;eos&gt;: not characters</source>
        <translation>Hver post, jsonl/csv-rad, linjepar eller avsnitt blir ett dokument, én sekvens &lt;bos&gt; … &lt;eos&gt;, for trening med sequences = documents (twb prepare --documents); krever en tokenisering med &lt;bos&gt;/&lt;eos&gt;: ikke tegn</translation>
    </message>
    <message>
        <source>tail (as nanoGPT)</source>
        <translation>slutten (som nanoGPT)</translation>
    </message>
    <message>
        <source>tail: the last part of the text is held out for validation, as nanoGPT does; shuffled documents: whole documents drawn at random (tick Keep documents, or give records)</source>
        <translation>slutten: den siste delen av teksten holdes av til validering, slik nanoGPT gjør; stokkede dokumenter: hele dokumenter trukket tilfeldig (kryss av for Behold dokumenter, eller gi poster)</translation>
    </message>
    <message>
        <source> (the last bar: %1 to %2)</source>
        <translation> (den siste søylen: %1 til %2)</translation>
    </message>
    <message>
        <source>document</source>
        <translation>dokument</translation>
    </message>
    <message>
        <source>line</source>
        <translation>linje</translation>
    </message>
    <message>
        <source>Use the tokenizer of a prepared dataset or a run: choose its folder</source>
        <translation>Bruk tokeniseringen til et klargjort datasett eller en kjøring: velg mappen</translation>
    </message>
    <message>
        <source>Vocab</source>
        <comment>short tab title</comment>
        <translation>Vokab.</translation>
    </message>
    <message>
        <source>A/B</source>
        <comment>short tab title</comment>
        <translation>A/B</translation>
    </message>
    <message>
        <source>Merges</source>
        <comment>short tab title</comment>
        <translation>Sammensl.</translation>
    </message>
    <message>
        <source>&lt;br&gt;%1 of the vocabulary are byte pieces (&amp;lt;0x00&amp;gt;…&amp;lt;0xFF&amp;gt;) for characters no other piece covers</source>
        <translation>&lt;br&gt;%1 av vokabularet er bytebiter (&amp;lt;0x00&amp;gt;…&amp;lt;0xFF&amp;gt;) for tegn som ingen annen bit dekker</translation>
    </message>
</context>
<context>
    <name>TokenizerChoice</name>
    <message>
        <source>automatic</source>
        <translation>automatisk</translation>
    </message>
</context>
<context>
    <name>TrainWorker</name>
    <message>
        <source>training failed with an unknown error</source>
        <translation>treningen mislyktes med en ukjent feil</translation>
    </message>
</context>
<context>
    <name>TrainingPanel</name>
    <message>
        <source>No prepared dataset yet: press &lt;b&gt;Quick start&lt;/b&gt; (Ctrl+R) to prepare Debian&apos;s fortune cookies and train a small model in under a minute.</source>
        <translation>Ingen klargjorte datasett ennå: trykk &lt;b&gt;Hurtigstart&lt;/b&gt; (Ctrl+R) for å klargjøre Debians fortune-sitater og trene en liten modell på under ett minutt.</translation>
    </message>
    <message>
        <source>Pausing after the step under way…</source>
        <translation>Setter på pause etter steget som pågår…</translation>
    </message>
    <message>
        <source>Paused at step %1 of %2: Resume (F6) continues, Stop (Shift+F5) ends with a checkpoint of step %1.</source>
        <translation>Pause ved steg %1 av %2: Fortsett (F6) fortsetter, Stopp (Shift+F5) avslutter med et sjekkpunkt ved steg %1.</translation>
    </message>
    <message>
        <source>training %1 more steps, to step %2</source>
        <translation>trener %1 steg til, til steg %2</translation>
    </message>
    <message>
        <source>&lt;b&gt;New run&lt;/b&gt; (a folder under %1 is made on Start)</source>
        <translation>&lt;b&gt;Ny kjøring&lt;/b&gt; (en mappe under %1 lages ved Start)</translation>
    </message>
    <message>
        <source>choose a dataset first: the range finder trains on it</source>
        <translation>velg et datasett først: områdesøket trener på det</translation>
    </message>
    <message>
        <source>learning rate set to %1</source>
        <translation>læringsrate satt til %1</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>Pause</translation>
    </message>
    <message>
        <source>preparing the fortunes corpus…</source>
        <translation>klargjør fortune-korpuset…</translation>
    </message>
    <message>
        <source>Preparing fortunes</source>
        <translation>Klargjør fortunes</translation>
    </message>
    <message>
        <source>preparation cancelled</source>
        <translation>klargjøring avbrutt</translation>
    </message>
    <message>
        <source>preparing: %1 %p%</source>
        <translation>klargjør: %1 %p%</translation>
    </message>
    <message>
        <source>step %v / %m</source>
        <translation>steg %v / %m</translation>
    </message>
    <message>
        <source>Training %1</source>
        <translation>Trener %1</translation>
    </message>
    <message>
        <source>Resumed at step %1</source>
        <translation>Fortsatte ved steg %1</translation>
    </message>
    <message>
        <source>resumed</source>
        <translation>fortsatt</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>Fortsett</translation>
    </message>
    <message>
        <source>paused</source>
        <translation>på pause</translation>
    </message>
    <message>
        <source>Stopping at step %1 after a checkpoint…</source>
        <translation>Stopper ved steg %1 etter et sjekkpunkt…</translation>
    </message>
    <message>
        <source>Stopping after a checkpoint…</source>
        <translation>Stopper etter et sjekkpunkt…</translation>
    </message>
    <message>
        <source>%1 is not a folder.</source>
        <translation>%1 er ikke en mappe.</translation>
    </message>
    <message>
        <source>%1 is not a prepared dataset: it has no meta.json (nor the train.bin, val.bin and tokenizer that go with it).</source>
        <translation>%1 er ikke et klargjort datasett: det har ingen meta.json (og heller ikke train.bin, val.bin og tokeniseringen som hører til).</translation>
    </message>
    <message>
        <source>%1 cannot be used as a dataset: %2</source>
        <translation>%1 kan ikke brukes som datasett: %2</translation>
    </message>
    <message>
        <source> Prepare text files into a dataset in the &lt;a href=&quot;datasets&quot;&gt;Datasets panel&lt;/a&gt; (Alt+1).</source>
        <translation> Klargjør tekstfiler til et datasett i &lt;a href=&quot;datasets&quot;&gt;Datasett-panelet&lt;/a&gt; (Alt+1).</translation>
    </message>
    <message>
        <source>%1%2 training pairs</source>
        <translation>%1%2 treningspar</translation>
    </message>
    <message>
        <source>Model kind set to &lt;b&gt;Encoder-decoder&lt;/b&gt;: %1 is a parallel dataset (%2). The Multi30k and Tatoeba presets are starting points for it.</source>
        <translation>Modelltype satt til &lt;b&gt;Koder-dekoder&lt;/b&gt;: %1 er et parallelt datasett (%2). Forhåndsvalgene Multi30k og Tatoeba er utgangspunkter for det.</translation>
    </message>
    <message>
        <source>Model kind set to &lt;b&gt;Decoder LM&lt;/b&gt;: %1 is a token-stream dataset, not translation pairs.</source>
        <translation>Modelltype satt til &lt;b&gt;Dekoder-LM&lt;/b&gt;: %1 er et tokenstrøm-datasett, ikke oversettelsespar.</translation>
    </message>
    <message>
        <source>Not for translation pairs: their loss is per target token</source>
        <translation>Ikke for oversettelsespar: tapet deres er per måltoken</translation>
    </message>
    <message>
        <source>&lt;b&gt;New run&lt;/b&gt; on %1 (run %2 was trained on another dataset; it is kept)</source>
        <translation>&lt;b&gt;Ny kjøring&lt;/b&gt; på %1 (kjøringen %2 ble trent på et annet datasett; den beholdes)</translation>
    </message>
    <message>
        <source>new run on %1: %2 stays as it is</source>
        <translation>ny kjøring på %1: %2 forblir som den er</translation>
    </message>
    <message>
        <source>Training is already running</source>
        <translation>Treningen kjører allerede</translation>
    </message>
    <message>
        <source>Choose a prepared dataset first: press Quick start (Ctrl+R), or prepare one in the Datasets panel</source>
        <translation>Velg et klargjort datasett først: trykk Hurtigstart (Ctrl+R), eller klargjør et i Datasett-panelet</translation>
    </message>
    <message>
        <source>%1 is a parallel dataset (translation pairs): choose Model kind Encoder-decoder, or a token-stream dataset for a decoder LM</source>
        <translation>%1 er et parallelt datasett (oversettelsespar): velg modelltypen Koder-dekoder, eller et tokenstrøm-datasett for en dekoder-LM</translation>
    </message>
    <message>
        <source>%1 is a token-stream dataset: an encoder-decoder trains on translation pairs; choose Model kind Decoder LM, or a parallel dataset (Datasets panel, Translation pairs)</source>
        <translation>%1 er et tokenstrøm-datasett: en koder-dekoder trener på oversettelsespar; velg modelltypen Dekoder-LM, eller et parallelt datasett (Datasett-panelet, Oversettelsespar)</translation>
    </message>
    <message>
        <source>Start training (F5)</source>
        <translation>Start trening (F5)</translation>
    </message>
    <message>
        <source>A prepared dataset (twb prepare, or the Quick start&apos;s fortunes)</source>
        <translation>Et klargjort datasett (twb prepare, eller hurtigstartens fortunes)</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>Bla gjennom…</translation>
    </message>
    <message>
        <source>Dataset</source>
        <translation>Datasett</translation>
    </message>
    <message>
        <source>Prepared dataset folder</source>
        <translation>Mappe med klargjort datasett</translation>
    </message>
    <message>
        <source>Quick start: train on fortunes</source>
        <translation>Hurtigstart: tren på fortunes</translation>
    </message>
    <message>
        <source>Prepares Debian&apos;s fortune cookies (char tokenizer) and trains the tiny preset: under a minute on two cores</source>
        <translation>Klargjør Debians fortune-sitater (tegntokenisering) og trener forhåndsvalget tiny: under ett minutt på to kjerner</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>Start</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Stopp</translation>
    </message>
    <message>
        <source>Checkpoint</source>
        <translation>Sjekkpunkt</translation>
    </message>
    <message>
        <source>Pause or resume (F6)</source>
        <translation>Pause eller fortsett (F6)</translation>
    </message>
    <message>
        <source>Stop after writing a checkpoint (Shift+F5)</source>
        <translation>Stopp etter å ha skrevet et sjekkpunkt (Shift+F5)</translation>
    </message>
    <message>
        <source>Write a checkpoint now (Ctrl+S)</source>
        <translation>Skriv et sjekkpunkt nå (Ctrl+S)</translation>
    </message>
    <message>
        <source>Find learning rate…</source>
        <translation>Finn læringsrate…</translation>
    </message>
    <message>
        <source>The range finder on a fresh model of this config; the open run is not touched (Ctrl+L)</source>
        <translation>Områdesøket på en ny modell med denne konfigurasjonen; den åpne kjøringen røres ikke (Ctrl+L)</translation>
    </message>
    <message>
        <source>Train more</source>
        <translation>Tren mer</translation>
    </message>
    <message>
        <source>Continue this finished run for more steps, at its minimum learning rate</source>
        <translation>Fortsett denne ferdige kjøringen flere steg, med minste læringsrate</translation>
    </message>
    <message>
        <source> steps</source>
        <translation> steg</translation>
    </message>
    <message>
        <source>&amp;Quick start on fortunes</source>
        <translation>&amp;Hurtigstart med fortunes</translation>
    </message>
    <message>
        <source>&amp;Start / continue</source>
        <translation>&amp;Start / fortsett</translation>
    </message>
    <message>
        <source>&amp;Pause / resume</source>
        <translation>&amp;Pause / fortsett</translation>
    </message>
    <message>
        <source>S&amp;top</source>
        <translation>S&amp;topp</translation>
    </message>
    <message>
        <source>Save &amp;checkpoint now</source>
        <translation>La&amp;gre sjekkpunkt nå</translation>
    </message>
    <message>
        <source>Find &amp;learning rate…</source>
        <translation>Finn &amp;læringsrate…</translation>
    </message>
    <message>
        <source>Idle</source>
        <translation>Ledig</translation>
    </message>
    <message>
        <source>Log-scale loss</source>
        <translation>Logaritmisk tap</translation>
    </message>
    <message>
        <source>Smoothing of the training loss curve</source>
        <translation>Glatting av treningstapkurven</translation>
    </message>
    <message>
        <source>nats per token</source>
        <translation>nats per token</translation>
    </message>
    <message>
        <source>bits per character</source>
        <translation>bit per tegn</translation>
    </message>
    <message>
        <source>The validation loss&apos;s unit. Bits per character compares runs with different tokenizers fairly: a BPE token spans several characters, so its loss per token is larger for the same text.</source>
        <translation>Enheten for valideringstapet. Bit per tegn sammenligner kjøringer med ulik tokenisering rettferdig: et BPE-token spenner over flere tegn, så tapet per token er større for den samme teksten.</translation>
    </message>
    <message>
        <source>Baselines</source>
        <translation>Grunnlinjer</translation>
    </message>
    <message>
        <source>The dataset&apos;s uniform, unigram and bigram validation losses as reference lines on the loss plot</source>
        <translation>Datasettets uniforme, unigram- og bigram-valideringstap som referanselinjer i tapsplottet</translation>
    </message>
    <message>
        <source>Smoothing</source>
        <translation>Glatting</translation>
    </message>
    <message>
        <source>Loss in</source>
        <translation>Tap i</translation>
    </message>
    <message>
        <source>steps</source>
        <translation>steg</translation>
    </message>
    <message>
        <source>epochs</source>
        <translation>epoker</translation>
    </message>
    <message>
        <source>The plots&apos; x-axis: optimiser steps, or passes over the training pairs (epochs) for an encoder-decoder run; a decoder LM&apos;s curves stay in steps</source>
        <translation>Plottenes x-akse: optimeringssteg, eller gjennomganger av treningsparene (epoker) for en koder-dekoder-kjøring; kurvene til en dekoder-LM forblir i steg</translation>
    </message>
    <message>
        <source>x in</source>
        <translation>x i</translation>
    </message>
    <message>
        <source>baselines: %1</source>
        <translation>grunnlinjer: %1</translation>
    </message>
    <message>
        <source>Precision %1: %2</source>
        <translation>Presisjon %1: %2</translation>
    </message>
    <message>
        <source>step %1 / %2 · loss %3</source>
        <translation>steg %1 / %2 · tap %3</translation>
    </message>
    <message>
        <source>step %1 / %2 · loss %3 · %4 tok/s · %5 ms/step · elapsed %6 · ETA %7</source>
        <translation>steg %1 / %2 · tap %3 · %4 tok/s · %5 ms/steg · brukt %6 · gjenstår %7</translation>
    </message>
    <message>
        <source> · GPU memory %1 / %2 GiB</source>
        <translation> · GPU-minne %1 / %2 GiB</translation>
    </message>
    <message>
        <source>val loss %1 · perplexity %2%3 · accuracy %4</source>
        <translation>val.-tap %1 · perpleksitet %2%3 · nøyaktighet %4</translation>
    </message>
    <message>
        <source> · %1 bits/char</source>
        <translation> · %1 bit/tegn</translation>
    </message>
    <message>
        <source> · BLEU %1</source>
        <translation> · BLEU %1</translation>
    </message>
    <message>
        <source> · epoch %1</source>
        <translation> · epoke %1</translation>
    </message>
    <message>
        <source>Last evaluation (step %1): %2%3</source>
        <translation>Siste evaluering (steg %1): %2%3</translation>
    </message>
    <message>
        <source> (best so far)</source>
        <translation> (beste så langt)</translation>
    </message>
    <message>
        <source>step %1: %2%3</source>
        <translation>steg %1: %2%3</translation>
    </message>
    <message>
        <source> (best)</source>
        <translation> (beste)</translation>
    </message>
    <message>
        <source> · best val BLEU %1 at step %2</source>
        <translation> · beste val.-BLEU %1 ved steg %2</translation>
    </message>
    <message>
        <source> · best val loss %1 at step %2</source>
        <translation> · beste val.-tap %1 ved steg %2</translation>
    </message>
    <message>
        <source> · median %1 ms/step</source>
        <translation> · median %1 ms/steg</translation>
    </message>
    <message>
        <source>Stopped at step %1</source>
        <translation>Stoppet ved steg %1</translation>
    </message>
    <message>
        <source>Finished at step %1</source>
        <translation>Ferdig ved steg %1</translation>
    </message>
    <message>
        <source>not started</source>
        <translation>ikke startet</translation>
    </message>
    <message>
        <source>, last at step %1</source>
        <translation>, siste ved steg %1</translation>
    </message>
    <message>
        <source>Being trained now by %1: the curves are what it had written when opened.</source>
        <translation>Trenes nå av %1: kurvene er det den hadde skrevet da den ble åpnet.</translation>
    </message>
    <message>
        <source>No checkpoint yet: Start trains this run from the beginning.</source>
        <translation>Ingen sjekkpunkt ennå: Start trener denne kjøringen fra begynnelsen.</translation>
    </message>
    <message>
        <source>&lt;b&gt;New run&lt;/b&gt; initialised from %1 (finetuning: same tokenizer, a new dataset)</source>
        <translation>&lt;b&gt;Ny kjøring&lt;/b&gt; initialisert fra %1 (finjustering: samme tokenisering, et nytt datasett)</translation>
    </message>
    <message>
        <source>, </source>
        <translation>, </translation>
    </message>
    <message>
        <source>&lt;b&gt;New run&lt;/b&gt; with the settings of %1 (its folder is made on Start)</source>
        <translation>&lt;b&gt;Ny kjøring&lt;/b&gt; med innstillingene fra %1 (mappen lages ved Start)</translation>
    </message>
    <message>
        <source>new run with the settings of %1: press Start (F5)</source>
        <translation>ny kjøring med innstillingene fra %1: trykk Start (F5)</translation>
    </message>
    <message>
        <source>&lt;b&gt;Run&lt;/b&gt; %1</source>
        <translation>&lt;b&gt;Kjøring&lt;/b&gt; %1</translation>
    </message>
    <message>
        <source>An imported model, with no dataset of its own: sample it and look inside it (Sampling, Attention), or finetune it on a dataset (Run → Initialise from run…).</source>
        <translation>En importert modell, uten eget datasett: generer tekst med den og se inn i den (Generering, Oppmerksomhet), eller finjuster den på et datasett (Kjør → Initialiser fra kjøring…).</translation>
    </message>
    <message>
        <source>checkpoint of step %1 written (%2)</source>
        <translation>sjekkpunkt for steg %1 skrevet (%2)</translation>
    </message>
    <message>
        <source>paused at step %1 / %2</source>
        <translation>pauset ved steg %1 / %2</translation>
    </message>
    <message>
        <source>Training %1 parameters on %2, %3, %4</source>
        <translation>Trener %1 parametere på %2, %3, %4</translation>
    </message>
    <message>
        <source>1 thread</source>
        <translation>1 tråd</translation>
    </message>
    <message>
        <source>%1 threads</source>
        <translation>%1 tråder</translation>
    </message>
    <message>
        <source>1 checkpoint</source>
        <translation>1 sjekkpunkt</translation>
    </message>
    <message>
        <source>%1 checkpoints</source>
        <translation>%1 sjekkpunkter</translation>
    </message>
    <message>
        <source>Comparing 1 other run (dashed).</source>
        <translation>Sammenligner 1 annen kjøring (stiplet).</translation>
    </message>
    <message>
        <source>Comparing %1 other runs (dashed).</source>
        <translation>Sammenligner %1 andre kjøringer (stiplet).</translation>
    </message>
    <message>
        <source>Same tokenizer, so nats per token compare; bits per character works too.</source>
        <translation>Samme tokenisering, så nats per token kan sammenlignes; bit per tegn virker også.</translation>
    </message>
    <message>
        <source>Choose a dataset, then press &lt;b&gt;Start&lt;/b&gt; (F5).</source>
        <translation>Velg et datasett, og trykk &lt;b&gt;Start&lt;/b&gt; (F5).</translation>
    </message>
    <message>
        <source>Ready: a new run on &lt;b&gt;%1&lt;/b&gt;; press &lt;b&gt;Start&lt;/b&gt; (F5).</source>
        <translation>Klar: en ny kjøring på &lt;b&gt;%1&lt;/b&gt;; trykk &lt;b&gt;Start&lt;/b&gt; (F5).</translation>
    </message>
    <message>
        <source>Not ready: %1.</source>
        <translation>Ikke klar: %1.</translation>
    </message>
    <message>
        <source> · %1 of training</source>
        <translation> · treningstid %1</translation>
    </message>
    <message>
        <source>Run &lt;b&gt;%1&lt;/b&gt; stopped at step %2 of %3. &lt;a href=&quot;resume&quot;&gt;Resume it&lt;/a&gt; · &lt;a href=&quot;dismiss&quot;&gt;Dismiss&lt;/a&gt;</source>
        <translation>Kjøringen &lt;b&gt;%1&lt;/b&gt; stoppet ved steg %2 av %3. &lt;a href=&quot;resume&quot;&gt;Fortsett den&lt;/a&gt; · &lt;a href=&quot;dismiss&quot;&gt;Avvis&lt;/a&gt;</translation>
    </message>
    <message>
        <source>The Quick start already trained &lt;b&gt;%1&lt;/b&gt; (%2 steps); the same settings would train the same model. &lt;a href=&quot;open&quot;&gt;Open it&lt;/a&gt; · &lt;a href=&quot;again&quot;&gt;Train another&lt;/a&gt; · &lt;a href=&quot;dismiss&quot;&gt;Dismiss&lt;/a&gt;</source>
        <translation>Hurtigstarten har alt trent &lt;b&gt;%1&lt;/b&gt; (%2 steg); de samme innstillingene ville trene den samme modellen. &lt;a href=&quot;open&quot;&gt;Åpne den&lt;/a&gt; · &lt;a href=&quot;again&quot;&gt;Tren en til&lt;/a&gt; · &lt;a href=&quot;dismiss&quot;&gt;Avvis&lt;/a&gt;</translation>
    </message>
    <message>
        <source>The Quick start&apos;s run &lt;b&gt;%1&lt;/b&gt; stopped at step %2 of %3. &lt;a href=&quot;resume&quot;&gt;Resume it&lt;/a&gt; · &lt;a href=&quot;again&quot;&gt;Train another&lt;/a&gt; · &lt;a href=&quot;dismiss&quot;&gt;Dismiss&lt;/a&gt;</source>
        <translation>Hurtigstartens kjøring &lt;b&gt;%1&lt;/b&gt; stoppet ved steg %2 av %3. &lt;a href=&quot;resume&quot;&gt;Fortsett den&lt;/a&gt; · &lt;a href=&quot;again&quot;&gt;Tren en til&lt;/a&gt; · &lt;a href=&quot;dismiss&quot;&gt;Avvis&lt;/a&gt;</translation>
    </message>
    <message>
        <source>Sequences set to &lt;b&gt;documents&lt;/b&gt;: %1 is chat data, one conversation a sequence, its loss on the replies.</source>
        <translation>Sekvenser satt til &lt;b&gt;dokumenter&lt;/b&gt;: %1 er chatdata, én samtale per sekvens, med tapet på svarene.</translation>
    </message>
    <message>
        <source>Stop training? A checkpoint is written first; Start continues the run.</source>
        <translation>Stoppe treningen? Et sjekkpunkt skrives først; Start fortsetter kjøringen.</translation>
    </message>
    <message>
        <source> · no validation split (shorter than a block): the validation figures are the training split&apos;s</source>
        <translation> · ingen valideringsdel (kortere enn en blokk): valideringstallene er treningsdelens</translation>
    </message>
    <message>
        <source> · best loss %1 at step %2</source>
        <translation> · beste tap %1 ved steg %2</translation>
    </message>
    <message>
        <source>Start again</source>
        <translation>Start på nytt</translation>
    </message>
    <message>
        <source>This run has no checkpoint to continue from, so Start trains it again from step 0 and replaces what metrics.csv logged (%1). Start again?</source>
        <translation>Denne kjøringen har ikke noe sjekkpunkt å fortsette fra, så Start trener den på nytt fra steg 0 og erstatter det metrics.csv har logget (%1). Starte på nytt?</translation>
    </message>
    <message>
        <source>1 step</source>
        <translation>1 steg</translation>
    </message>
    <message>
        <source>%1 steps</source>
        <translation>%1 steg</translation>
    </message>
    <message>
        <source>No checkpoint left to continue from: Start trains this run again from the beginning, replacing the curves shown.</source>
        <translation>Ikke noe sjekkpunkt igjen å fortsette fra: Start trener denne kjøringen på nytt fra begynnelsen og erstatter kurvene som vises.</translation>
    </message>
    <message>
        <source>Training failed before its first checkpoint (the message in red says why): Start trains the run again from the beginning.</source>
        <translation>Treningen mislyktes før det første sjekkpunktet (meldingen i rødt sier hvorfor): Start trener kjøringen på nytt fra begynnelsen.</translation>
    </message>
    <message>
        <source>Training failed (the message in red says why); its last checkpoint is step %1: Start (F5) continues from there.</source>
        <translation>Treningen mislyktes (meldingen i rødt sier hvorfor); det siste sjekkpunktet er steg %1: Start (F5) fortsetter derfra.</translation>
    </message>
    <message>
        <source> (no checkpoint of this step on disk)</source>
        <translation> (ingen sjekkpunkt for dette steget på disken)</translation>
    </message>
    <message>
        <source>Its metrics.csv is %1, so no curves are shown; the checkpoints are intact.</source>
        <translation>Dens metrics.csv er %1, så ingen kurver vises; sjekkpunktene er intakte.</translation>
    </message>
    <message>
        <source>empty</source>
        <translation>tom</translation>
    </message>
    <message>
        <source>missing</source>
        <translation>mangler</translation>
    </message>
    <message>
        <source>Steps (%1) is not above step %2, where this run stands: raise it to continue the run; New run (Ctrl+N) starts another</source>
        <translation>«Steg» (%1) er ikke over steg %2, der denne kjøringen står: øk det for å fortsette kjøringen; Ny kjøring (Ctrl+N) starter en ny</translation>
    </message>
    <message>
        <source>Training is running: use the rate once it has stopped, for a new run.</source>
        <translation>Treningen kjører: bruk raten når den har stoppet, for en ny kjøring.</translation>
    </message>
    <message>
        <source>learning rate set to %1 for a new run: the open run keeps its own</source>
        <translation>læringsrate satt til %1 for en ny kjøring: den åpne kjøringen beholder sin egen</translation>
    </message>
    <message>
        <source>Finished at step %1%2.</source>
        <translation>Ferdig ved steg %1%2.</translation>
    </message>
    <message>
        <source>Stopped at step %1 of %2%3: Start (F5) continues it.</source>
        <translation>Stoppet ved steg %1 av %2%3: Start (F5) fortsetter den.</translation>
    </message>
    <message>
        <source>&lt;b&gt;Run&lt;/b&gt; %1&lt;br&gt;%2</source>
        <translation>&lt;b&gt;Kjøring&lt;/b&gt; %1&lt;br&gt;%2</translation>
    </message>
    <message>
        <source>initialised from %1</source>
        <translation>initialisert fra %1</translation>
    </message>
    <message>
        <source>no checkpoint yet</source>
        <translation>ingen sjekkpunkter ennå</translation>
    </message>
    <message>
        <source>Stop comparing</source>
        <translation>Slutt å sammenligne</translation>
    </message>
    <message>
        <source>An imported model has no dataset of its own to continue on: Run → Initialise from run… finetunes it on one; New run (Ctrl+N) starts another</source>
        <translation>En importert modell har ikke noe eget datasett å fortsette på: Kjør → Initialiser fra kjøring… finjusterer den på et; Ny kjøring (Ctrl+N) starter en annen</translation>
    </message>
    <message>
        <source>These runs&apos; tokenizers differ (%1), so their losses per token do not compare: the validation loss is shown in &lt;b&gt;bits per character&lt;/b&gt;, the unit they share.</source>
        <translation>Disse kjøringenes tokeniseringer er ulike (%1), så tapene per token kan ikke sammenlignes: valideringstapet vises i &lt;b&gt;bit per tegn&lt;/b&gt;, enheten de har felles.</translation>
    </message>
    <message>
        <source>Continue the paused training (F5 or F6)</source>
        <translation>Fortsett treningen som står på pause (F5 eller F6)</translation>
    </message>
    <message>
        <source>Stopped at step %1 of %2</source>
        <translation>Stoppet ved steg %1 av %2</translation>
    </message>
    <message>
        <source>Show the plots over the whole panel, the settings set aside (or double-click a plot; Esc returns)</source>
        <translation>Vis plottene over hele panelet, med innstillingene lagt til side (eller dobbeltklikk på et plott; Esc går tilbake)</translation>
    </message>
    <message>
        <source>Back from the enlarged plots</source>
        <translation>Tilbake fra de forstørrede plottene</translation>
    </message>
    <message>
        <source>This run finished its epochs at step %1: Train more (below) continues it, or raise Epochs and press Start; New run (Ctrl+N) starts another</source>
        <translation>Denne kjøringen fullførte epokene ved steg %1: Tren mer (under) fortsetter den, eller øk «Epoker» og trykk Start; Ny kjøring (Ctrl+N) starter en ny</translation>
    </message>
    <message>
        <source>This run finished at step %1: Train more (below) continues it, or raise Steps and press Start; New run (Ctrl+N) starts another</source>
        <translation>Denne kjøringen ble ferdig ved steg %1: Tren mer (under) fortsetter den, eller øk «Steg» og trykk Start; Ny kjøring (Ctrl+N) starter en ny</translation>
    </message>
</context>
<context>
    <name>TranslationAttributionStrip</name>
    <message>
        <source>Export…</source>
        <translation>Eksporter…</translation>
    </message>
    <message>
        <source>The strip as a picture (PNG/SVG), or every target token&apos;s attribution as numbers (CSV/JSON)</source>
        <translation>Stripen som bilde (PNG/SVG), eller attribusjonen til hvert måltoken som tall (CSV/JSON)</translation>
    </message>
    <message>
        <source>Gradient × input: how the token&apos;s logit changes with each source token and each earlier target token (blue raised it, red lowered it).</source>
        <translation>Gradient × inndata: hvordan tokenets logit endres med hvert kildetoken og hvert tidligere måltoken (blått løftet det, rødt senket det).</translation>
    </message>
    <message>
        <source>Export the attribution</source>
        <translation>Eksporter attribusjonen</translation>
    </message>
    <message>
        <source>Where the token came from: computing…</source>
        <translation>Hvor tokenet kom fra: beregner…</translation>
    </message>
    <message>
        <source>No attribution: %1</source>
        <translation>Ingen attribusjon: %1</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>Kilde</translation>
    </message>
    <message>
        <source>source %1</source>
        <translation>kilde %1</translation>
    </message>
    <message>
        <source>Translation before it</source>
        <translation>Oversettelsen før det</translation>
    </message>
    <message>
        <source>target %1</source>
        <translation>mål %1</translation>
    </message>
    <message>
        <source>Where “%1” (p = %2) came from, by gradient × input: among the source&apos;s tokens the most from “%3”. Hover a token for its value.</source>
        <translation>Hvor «%1» (p = %2) kom fra, etter gradient × inndata: blant kildens tokener mest fra «%3». Hold pekeren over et token for verdien.</translation>
    </message>
</context>
<context>
    <name>TranslationBatchView</name>
    <message>
        <source>Browse…</source>
        <translation>Bla gjennom…</translation>
    </message>
    <message>
        <source>Write the translations to</source>
        <translation>Skriv oversettelsene til</translation>
    </message>
    <message>
        <source>Choose a text file</source>
        <translation>Velg en tekstfil</translation>
    </message>
    <message>
        <source>Sources</source>
        <translation>Kilder</translation>
    </message>
    <message>
        <source>a text file, one source sentence per line</source>
        <translation>en tekstfil, én kildesetning per linje</translation>
    </message>
    <message>
        <source>Write to</source>
        <translation>Skriv til</translation>
    </message>
    <message>
        <source>the translations, one per line (written at the end)</source>
        <translation>oversettelsene, én per linje (skrives til slutt)</translation>
    </message>
    <message>
        <source>References</source>
        <translation>Referanser</translation>
    </message>
    <message>
        <source>optional: one reference translation per line, for BLEU</source>
        <translation>valgfritt: én referanseoversettelse per linje, for BLEU</translation>
    </message>
    <message>
        <source> rows</source>
        <translation> rader</translation>
    </message>
    <message>
        <source>How many (source, translation, reference) rows the table shows</source>
        <translation>Hvor mange rader (kilde, oversettelse, referanse) tabellen viser</translation>
    </message>
    <message>
        <source>Show first</source>
        <translation>Vis første</translation>
    </message>
    <message>
        <source>Translate file</source>
        <translation>Oversett fil</translation>
    </message>
    <message>
        <source>Translate every line of the sources with the decoding settings on the left (twb translate --input FILE)</source>
        <translation>Oversett hver linje i kildene med dekodingsinnstillingene til venstre (twb translate --input FILE)</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Avbryt</translation>
    </message>
    <message>
        <source>Cancel (Esc): nothing is written</source>
        <translation>Avbryt (Esc): ingenting skrives</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>Kilde</translation>
    </message>
    <message>
        <source>Translation</source>
        <translation>Oversettelse</translation>
    </message>
    <message>
        <source>Reference</source>
        <translation>Referanse</translation>
    </message>
    <message>
        <source>%1 / %2 lines</source>
        <translation>%1 / %2 linjer</translation>
    </message>
    <message>
        <source>about %1 left</source>
        <translation>omtrent %1 igjen</translation>
    </message>
    <message>
        <source>No run to translate with: train an encoder-decoder run or open a run folder (…).</source>
        <translation>Ingen kjøring å oversette med: tren en koder-dekoder-kjøring eller åpne en kjøringsmappe (…).</translation>
    </message>
    <message>
        <source>Choose the file to translate: one source sentence per line.</source>
        <translation>Velg filen som skal oversettes: én kildesetning per linje.</translation>
    </message>
    <message>
        <source>%1 does not exist: choose the file to translate.</source>
        <translation>%1 finnes ikke: velg filen som skal oversettes.</translation>
    </message>
    <message>
        <source>Choose where to write the translations.</source>
        <translation>Velg hvor oversettelsene skal skrives.</translation>
    </message>
    <message>
        <source>The translations would overwrite an input file: choose another output file.</source>
        <translation>Oversettelsene ville overskrevet en inndatafil: velg en annen utdatafil.</translation>
    </message>
    <message>
        <source>%1 does not exist: choose the reference file, or leave it empty.</source>
        <translation>%1 finnes ikke: velg referansefilen, eller la feltet stå tomt.</translation>
    </message>
    <message>
        <source>translating…</source>
        <translation>oversetter…</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>avbrutt</translation>
    </message>
    <message>
        <source>%1 lines</source>
        <translation>%1 linjer</translation>
    </message>
    <message>
        <source>Cancelled: nothing was written.</source>
        <translation>Avbrutt: ingenting ble skrevet.</translation>
    </message>
    <message>
        <source>%1 lines translated in %2 (step %3), written to %4.</source>
        <translation>%1 linjer oversatt på %2 (steg %3), skrevet til %4.</translation>
    </message>
    <message>
        <source>&lt;br&gt;&lt;b&gt;BLEU = %1&lt;/b&gt; %2/%3/%4/%5 (BP = %6, ratio = %7, hyp_len = %8, ref_len = %9)</source>
        <translation>&lt;br&gt;&lt;b&gt;BLEU = %1&lt;/b&gt; %2/%3/%4/%5 (BP = %6, forhold = %7, hyp_len = %8, ref_len = %9)</translation>
    </message>
    <message>
        <source>&lt;br&gt;&lt;span style=&quot;color:#555&quot;&gt;signature: %1&lt;/span&gt;</source>
        <translation>&lt;br&gt;&lt;span style=&quot;color:#555&quot;&gt;signatur: %1&lt;/span&gt;</translation>
    </message>
    <message>
        <source>&lt;br&gt;&lt;b&gt;chrF2 = %1&lt;/b&gt; &lt;span style=&quot;color:#555&quot;&gt;signature: %2&lt;/span&gt;</source>
        <translation>&lt;br&gt;&lt;b&gt;chrF2 = %1&lt;/b&gt; &lt;span style=&quot;color:#555&quot;&gt;signatur: %2&lt;/span&gt;</translation>
    </message>
    <message>
        <source>&lt;br&gt;No reference file: no BLEU.</source>
        <translation>&lt;br&gt;Ingen referansefil: ingen BLEU.</translation>
    </message>
    <message>
        <source>BLEU %1 on %2 lines</source>
        <translation>BLEU %1 på %2 linjer</translation>
    </message>
    <message>
        <source>%1 lines translated</source>
        <translation>%1 linjer oversatt</translation>
    </message>
    <message>
        <source>%1 cannot be written (its folder %2 %3): choose another output file.</source>
        <translation>%1 kan ikke skrives (mappen %2 %3): velg en annen utdatafil.</translation>
    </message>
    <message>
        <source>is not writable</source>
        <translation>er skrivebeskyttet</translation>
    </message>
    <message>
        <source>does not exist</source>
        <translation>finnes ikke</translation>
    </message>
    <message>
        <source>%1 is a folder: choose a file to write the translations to.</source>
        <translation>%1 er en mappe: velg en fil å skrive oversettelsene til.</translation>
    </message>
    <message>
        <source>&lt;br&gt;&lt;b&gt;Lines longer than the model&apos;s %1 source tokens were translated from their start only: %2&lt;/b&gt; (the first: line %3); split long sentences.</source>
        <translation>&lt;br&gt;&lt;b&gt;Linjer lengre enn modellens %1 kildetokens ble oversatt bare fra starten: %2&lt;/b&gt; (den første: linje %3); del opp lange setninger.</translation>
    </message>
    <message>
        <source>&lt;br&gt;&lt;b&gt;Translations that stopped at the length limit before the model ended them: %1&lt;/b&gt; (the first: line %2); they may be unfinished.</source>
        <translation>&lt;br&gt;&lt;b&gt;Oversettelser som stoppet ved lengdegrensen før modellen avsluttet dem: %1&lt;/b&gt; (den første: linje %2); de kan være uferdige.</translation>
    </message>
    <message>
        <source>Replace the file?</source>
        <translation>Erstatte filen?</translation>
    </message>
    <message>
        <source>%1 already exists. Replace it with the translations?</source>
        <translation>%1 finnes allerede. Erstatte den med oversettelsene?</translation>
    </message>
</context>
<context>
    <name>TranslationForm</name>
    <message>
        <source>Translation</source>
        <translation>Oversettelse</translation>
    </message>
    <message>
        <source>1 = greedy: each token streamed as it is chosen. &gt; 1 = beam search: keeps this many candidate translations and shows the best one when the search ends (twb translate --beam)</source>
        <translation>1 = grådig: hvert token strømmes når det velges. &gt; 1 = strålesøk: beholder så mange kandidatoversettelser og viser den beste når søket er ferdig (twb translate --beam)</translation>
    </message>
    <message>
        <source>A translation stops after this many tokens per source token, plus the extra tokens (twb translate --max-ratio); never past the model&apos;s block_size</source>
        <translation>En oversettelse stopper etter så mange tokener per kildetoken, pluss de ekstra tokenene (twb translate --max-ratio); aldri forbi modellens block_size</translation>
    </message>
    <message>
        <source>Tokens allowed beyond the ratio (twb translate --max-extra)</source>
        <translation>Tokener tillatt utover forholdet (twb translate --max-extra)</translation>
    </message>
    <message>
        <source>KV cache</source>
        <translation>KV-hurtiglager</translation>
    </message>
    <message>
        <source>Reuse the decoder&apos;s keys and values of earlier tokens: same translation, faster</source>
        <translation>Gjenbruk dekoderens nøkler og verdier fra tidligere tokener: samme oversettelse, raskere</translation>
    </message>
    <message>
        <source>Beam score = log-probability / length^this: higher favours longer translations (twb translate --length-penalty)</source>
        <translation>Strålepoeng = log-sannsynlighet / lengde^dette: høyere favoriserer lengre oversettelser (twb translate --length-penalty)</translation>
    </message>
    <message>
        <source>Used by beam search only: set the beam width above 1</source>
        <translation>Brukes bare av strålesøk: sett strålebredden over 1</translation>
    </message>
    <message>
        <source>Beam width</source>
        <translation>Strålebredde</translation>
    </message>
    <message>
        <source>Length penalty</source>
        <translation>Lengdestraff</translation>
    </message>
    <message>
        <source>Max length ratio</source>
        <translation>Maks lengdeforhold</translation>
    </message>
    <message>
        <source>Extra tokens</source>
        <translation>Ekstra tokener</translation>
    </message>
</context>
<context>
    <name>TranslationView</name>
    <message>
        <source>Translate</source>
        <translation>Oversett</translation>
    </message>
    <message>
        <source>Translate a file</source>
        <translation>Oversett en fil</translation>
    </message>
    <message>
        <source>This run is an &lt;b&gt;encoder-decoder&lt;/b&gt; (translation) model: type a source sentence and translate it. Decoder LM runs show the sampling controls instead.</source>
        <translation>Denne kjøringen er en &lt;b&gt;koder-dekoder&lt;/b&gt;-modell (oversettelse): skriv en kildesetning og oversett den. Dekoder-LM-kjøringer viser genereringskontrollene i stedet.</translation>
    </message>
    <message>
        <source>beam %1</source>
        <translation>stråle %1</translation>
    </message>
    <message>
        <source>greedy</source>
        <translation>grådig</translation>
    </message>
    <message>
        <source> · stopped</source>
        <translation> · stoppet</translation>
    </message>
    <message>
        <source>Translation copied</source>
        <translation>Oversettelse kopiert</translation>
    </message>
    <message>
        <source>Translate a file (batch)</source>
        <translation>Oversett en fil (batch)</translation>
    </message>
    <message>
        <source>Translate the source (Ctrl+Return)</source>
        <translation>Oversett kilden (Ctrl+Return)</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Stopp</translation>
    </message>
    <message>
        <source>Stop (Esc): ends within one token (a beam search within one step)</source>
        <translation>Stopp (Esc): avslutter innen ett token (et strålesøk innen ett steg)</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>Kopier</translation>
    </message>
    <message>
        <source>Copy the translation as plain text</source>
        <translation>Kopier oversettelsen som ren tekst</translation>
    </message>
    <message>
        <source>Translate a file…</source>
        <translation>Oversett en fil…</translation>
    </message>
    <message>
        <source>Translate a whole file, one sentence per line, and score it against references (Ctrl+Shift+B)</source>
        <translation>Oversett en hel fil, én setning per linje, og gi den poeng mot referanser (Ctrl+Shift+B)</translation>
    </message>
    <message>
        <source>Source sentence to translate</source>
        <translation>Kildesetning som skal oversettes</translation>
    </message>
    <message>
        <source>The translation appears here, each token tinted by its probability (green = likely, red = unlikely). Hover a token for the alternatives the model weighed there, or click it.</source>
        <translation>Oversettelsen vises her, hvert token farget etter sannsynligheten (grønt = sannsynlig, rødt = usannsynlig). Hold over et token for alternativene modellen veide der, eller klikk det.</translation>
    </message>
    <message>
        <source>Click a translated token to see the alternatives the model weighed there.</source>
        <translation>Klikk et oversatt token for å se alternativene modellen veide der.</translation>
    </message>
    <message>
        <source>No run to translate with: train an encoder-decoder run or open a run folder (…).</source>
        <translation>Ingen kjøring å oversette med: tren en koder-dekoder-kjøring eller åpne en kjøringsmappe (…).</translation>
    </message>
    <message>
        <source>The source is empty: type a sentence to translate.</source>
        <translation>Kilden er tom: skriv en setning som skal oversettes.</translation>
    </message>
    <message>
        <source>beam search (width %1)…</source>
        <translation>strålesøk (bredde %1)…</translation>
    </message>
    <message>
        <source>translating…</source>
        <translation>oversetter…</translation>
    </message>
    <message>
        <source>%1 tokens · %2 tok/s</source>
        <translation>%1 tokener · %2 tok/s</translation>
    </message>
    <message>
        <source>Token #%1 %2 (p = %3): the most probable tokens at this step, given the source and the translation before it:</source>
        <translation>Token nr. %1 %2 (p = %3): de mest sannsynlige tokenene i dette steget, gitt kilden og oversettelsen før det:</translation>
    </message>
    <message>
        <source>%1 tokens</source>
        <translation>%1 tokener</translation>
    </message>
    <message>
        <source>1 token</source>
        <translation>1 token</translation>
    </message>
    <message>
        <source>%1, cut at the length limit</source>
        <translation>%1, kuttet ved lengdegrensen</translation>
    </message>
    <message>
        <source>source %1 → %2 · %3 · %4 tok/s · step %5%6</source>
        <translation>kilde %1 → %2 · %3 · %4 tok/s · steg %5%6</translation>
    </message>
    <message>
        <source>Nothing to copy yet: Translate first</source>
        <translation>Ingenting å kopiere ennå: trykk Oversett først</translation>
    </message>
</context>
<context>
    <name>TranslationWorker</name>
    <message>
        <source>no run chosen; train an encoder-decoder run first or open a run folder</source>
        <translation>ingen kjøring valgt; tren en koder-dekoder-kjøring først eller åpne en kjøringsmappe</translation>
    </message>
    <message>
        <source>no input file: choose a file with one source sentence per line</source>
        <translation>ingen inndatafil: velg en fil med én kildesetning per linje</translation>
    </message>
    <message>
        <source>no output file: choose where the translations are written</source>
        <translation>ingen utdatafil: velg hvor oversettelsene skal skrives</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Unexpected error: %1</source>
        <translation>Uventet feil: %1</translation>
    </message>
</context>
</TS>
