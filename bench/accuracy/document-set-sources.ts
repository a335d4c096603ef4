// `node bench/accuracy/document-set-sources.ts --repos <dir> --out <dir> [--set held-out|held-out-2|held-out-3|held-out-4]`:
// rebuilds the real-specimen document set that `npm run bench:accuracy -- --documents <out>/real` reads,
// byte for byte, from the five public repositories it is gathered from (`--set held-out`: the nine of
// document-holdout-sources.ts instead; `held-out-2`: the five of document-holdout2-sources.ts; `held-out-3`:
// the four of document-holdout3-sources.ts; `held-out-4`: the three of document-holdout4-sources.ts):
// `<out>/real/zone-verifies/<name>.jpg` with `<name>.mrz` (the zone as printed, one line per line),
// `<out>/real/zone-does-not-verify/…` for zones that do not pass the
// server's parseMrz as printed (visas, the pre-ICAO French card, non-ISO codes such as BDR, INP, ASU, COU,
// printed wrong check digits, 29 February 2011), and `<out>/SOURCES.md` naming each file's repository,
// path, commit and licence. The images are specimen documents of governments, ICAO and vendors: the
// repositories' licences do not cover them, so only this list is committed, never the images. `<dir>`
// holds one git clone (or bare git directory) of each repository, named `<owner>+<name>` or `<name>`, with
// the commit given below in its history; nothing is downloaded. JPEGs are copied unchanged (the Doubango
// orientation variants keep their EXIF orientation); PNGs are re-encoded as JPEG with sharp, unrotated.
//
// Each zone was transcribed from the zoomed image, character by character (the repositories' own test
// strings, where they exist, were checked against the image: Arg0s1080/mrz's checker samples differ from
// the printed Liechtenstein, Interpol and ASU zones, and the printed text is kept). Left out: photos
// without a zone (ultimateMRZ's Passport-France cover, fastmrz's nomrz.jpg, PassportEye's tesseract and
// pacman images), and documents that look like a real person's: PassportEye's 24_pass-egy.jpg,
// Arg0s1080/mrz's id_cards/Peru.png, visas/Germany.png and visas/United_Kingdom.png, fastmrz's
// passport_uk.jpg.
import { mkdirSync, writeFileSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { decodeBmp } from './bmp-image.ts';
import { HELD_OUT_DOCUMENT_SOURCES } from './document-holdout-sources.ts';
import { SECOND_HELD_OUT_DOCUMENT_SOURCES } from './document-holdout2-sources.ts';
import { THIRD_HELD_OUT_DOCUMENT_SOURCES } from './document-holdout3-sources.ts';
import { FOURTH_HELD_OUT_DOCUMENT_SOURCES } from './document-holdout4-sources.ts';
import { setFileReader } from './repository-files.ts';

export interface DocumentSpecimen {
  /** The image's path in the repository. */
  path: string;
  /** `<name>.jpg` and `<name>.mrz` in the output: `<repository prefix>_<file stem>`. */
  name: string;
  /** Whether the printed zone passes the server's parseMrz: decides the folder. */
  verifies: boolean;
  /** The zone as printed, one string per line. */
  zone: string[];
}

export interface DocumentSetSource {
  /** owner/name on GitHub. */
  repo: string;
  /** The commit the images are read at. */
  commit: string;
  licence: string;
  documents: DocumentSpecimen[];
}

export const DOCUMENT_SET_SOURCES: readonly DocumentSetSource[] = [
  {
    repo: 'konstantint/PassportEye',
    commit: 'd866f1b0c4cb182b4332739d7098d81225c31179',
    licence: 'MIT',
    documents: [
      {
        path: 'passporteye/mrz/testdata/0_id-esp.png',
        name: 'passporteye_0_id-esp',
        verifies: false,
        zone: [
          'IDESPAAA1000014<00000023T<<<<<',
          '7212018F1101236ESP<<<<<<<<<<<8',
          'ESPAÑOLA<ESPAÑOLA<CARMEN<<<<<<',
        ],
      },
      {
        path: 'passporteye/mrz/testdata/100_id-che.jpg',
        name: 'passporteye_100_id-che',
        verifies: true,
        zone: [
          'IDCHES0002068<8<<<<<<<<<<<<<<<',
          '8102287F1301014CHE<<<<<<<<<<<4',
          'VADIS<<QUO<<<<<<<<<<<<<<<<<<<<',
        ],
      },
      {
        path: 'passporteye/mrz/testdata/100_id-mac.jpg',
        name: 'passporteye_100_id-mac',
        verifies: false,
        zone: [
          'I<MAC12281507<0<<<<<<<<0212300',
          '6106225M1212307<<<<<<<<<<<<<<6',
          'CHONG<<KA<KEONG<<<<<<<<<<<<<<<',
        ],
      },
      {
        path: 'passporteye/mrz/testdata/100_id-rou.jpg',
        name: 'passporteye_100_id-rou',
        verifies: false,
        zone: ['IDROUSAVA<<SUPERMAN<<<<<<<<<<<<<<<<<', 'HD198025<51328505095M130509012049941'],
      },
      {
        path: 'passporteye/mrz/testdata/100_id-si.jpg',
        name: 'passporteye_100_id-si',
        verifies: false,
        zone: [
          'I<SI<09999100180706966505468<<',
          '6606079F0807276SI<<<<<<<<<<<<0',
          'VZOREC<<TINA<<<<<<<<<<<<<<<<<<',
        ],
      },
      {
        path: 'passporteye/mrz/testdata/100_id-usa.jpg',
        name: 'passporteye_100_id-usa',
        verifies: true,
        zone: [
          'IAUSA0000000033LIN1044750079<<',
          '5808175F1004027COD<<<<<<<<<<<7',
          'SPECIMEN<<TEST<VOID<<<<<<<<<<<',
        ],
      },
      {
        path: 'passporteye/mrz/testdata/100_pass-bdr.jpg',
        name: 'passporteye_100_pass-bdr',
        verifies: false,
        zone: [
          'P<BDRMUSTERMANN<<ERIKA<<<<<<<<<<<<<<<<<<<<<<',
          'CA000000<4D<<6408125F1802212<<<<<<<<<<<<<<<6',
        ],
      },
      {
        path: 'passporteye/mrz/testdata/100_pass-chn.jpg',
        name: 'passporteye_100_pass-chn',
        verifies: true,
        zone: [
          'P<TWNLIN<<MEI<HUA<<<<<<<<<<<<<<<<<<<<<<<<<<<',
          '0000000000TWN7601015F1404018A234567893<<<<18',
        ],
      },
      {
        path: 'passporteye/mrz/testdata/100_pass-cze.jpg',
        name: 'passporteye_100_pass-cze',
        verifies: true,
        zone: [
          'P<CZESPECIMEN<<VZOR<<<<<<<<<<<<<<<<<<<<<<<<<',
          '99003853<1CZE1101018M1207046110101111<<<<<94',
        ],
      },
      {
        path: 'passporteye/mrz/testdata/100_pass-cze2.jpg',
        name: 'passporteye_100_pass-cze2',
        verifies: true,
        zone: [
          'P<CZESPECIMEN<<VZOR<<<<<<<<<<<<<<<<<<<<<<<<<',
          '99009054<4CZE6906229F16072996956220612<<<<74',
        ],
      },
      {
        path: 'passporteye/mrz/testdata/100_pass-fin.png',
        name: 'passporteye_100_pass-fin',
        verifies: true,
        zone: [
          'P<FINVIRTANEN<<MARIA<OLIVIA<<<<<<<<<<<<<<<<<',
          'XP82716024FIN7112214F1108213211271<426U<<<04',
        ],
      },
      {
        path: 'passporteye/mrz/testdata/100_pass-hrv.jpg',
        name: 'passporteye_100_pass-hrv',
        verifies: true,
        zone: [
          'P<HRVSPECIMEN<<SPECIMEN<<<<<<<<<<<<<<<<<<<<<',
          '0070070071HRV8212258F1407019<<<<<<<<<<<<<<06',
        ],
      },
      {
        path: 'passporteye/mrz/testdata/100_pass-isl.png',
        name: 'passporteye_100_pass-isl',
        verifies: true,
        zone: [
          'P<ISLAEVARSDOTTIR<<THURIDUR<OESP<<<<<<<<<<<<',
          'A0000000<0ISL6612315F0905264311266<9539<<<32',
        ],
      },
      {
        path: 'passporteye/mrz/testdata/100_pass-ltu.jpg',
        name: 'passporteye_100_pass-ltu',
        verifies: true,
        zone: [
          'P<LTUBASANAVICIENE<<BIRUTE<<<<<<<<<<<<<<<<<<',
          '00000000<0LTU5911239F120101145911231023<<<16',
        ],
      },
      {
        path: 'passporteye/mrz/testdata/100_pass-lux.jpg',
        name: 'passporteye_100_pass-lux',
        verifies: true,
        zone: [
          'P<LUXMAUS<<KETTY<<<<<<<<<<<<<<<<<<<<<<<<<<<<',
          'S998527<<4LUX7806201F110808403060021041<<<96',
        ],
      },
      {
        path: 'passporteye/mrz/testdata/100_pass-polx.jpg',
        name: 'passporteye_100_pass-polx',
        verifies: true,
        zone: [
          'P<POLKOWALSKA<KWIATKOWSKA<<JOANNA<<<<<<<<<<<',
          'AA00000000POL6002084F1412314<<<<<<<<<<<<<<<4',
        ],
      },
      {
        path: 'passporteye/mrz/testdata/100_pass-uto.jpg',
        name: 'passporteye_100_pass-uto',
        verifies: true,
        zone: [
          'P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<',
          'L898902C36UTO7408122F1204159ZE184226B<<<<<10',
        ],
      },
      {
        path: 'passporteye/mrz/testdata/100_pass2-uto.jpg',
        name: 'passporteye_100_pass2-uto',
        verifies: true,
        zone: ['I<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<', 'D231458907UTO7408122F1204159<<<<<<<6'],
      },
      {
        path: 'passporteye/mrz/testdata/100_visa-polx.jpg',
        name: 'passporteye_100_visa-polx',
        verifies: false,
        zone: ['VCPOLKOWALSKA<KWIATKOWSKA<<BEATA<<<<', 'PL00000008POL6002084F0505011<<<<<<<0'],
      },
      {
        path: 'passporteye/mrz/testdata/100_visa-usa.jpg',
        name: 'passporteye_100_visa-usa',
        verifies: false,
        zone: [
          'VIUSATRAVELER<<HAPPYPERSON<<<<<<<<<<<<<<<<<<',
          '555123ABC6GBR6502056F0412236IFLND00AMS803085',
        ],
      },
      {
        path: 'passporteye/mrz/testdata/25_pass-uto.jpg',
        name: 'passporteye_25_pass-uto',
        verifies: true,
        zone: [
          'P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<',
          'L898902C36UTO7408122F1204159ZE184226B<<<<<10',
        ],
      },
      {
        path: 'passporteye/mrz/testdata/27_pass-gbr.jpg',
        name: 'passporteye_27_pass-gbr',
        verifies: true,
        zone: [
          'P<GBRUNITED<KINGDOM<TWENTY<SIX<<JODIE<PIPPA<',
          '1071828900GBR8501178F1601312<<<<<<<<<<<<<<06',
        ],
      },
      {
        path: 'passporteye/mrz/testdata/33_id-usa.jpg',
        name: 'passporteye_33_id-usa',
        verifies: false,
        zone: [
          'C1USA0223456791EAC9730051220<<',
          '4910040M9411014CAN<<<<<<<<<<<0',
          'CRITTENDEN<<LEE<W<<<<<<<<<<<<<',
        ],
      },
      {
        path: 'passporteye/mrz/testdata/43_pass-fra.jpg',
        name: 'passporteye_43_pass-fra',
        verifies: true,
        zone: [
          'P<FRAULYSSE<<CHRISTOPHE<<<<<<<<<<<<<<<<<<<<<',
          '08CD503380FRA6004103M1806058<<<<<<<<<<<<<<06',
        ],
      },
      {
        path: 'passporteye/mrz/testdata/43_pass-twn.jpg',
        name: 'passporteye_43_pass-twn',
        verifies: true,
        zone: [
          'P<TWNLIN<<CHIEN<SHENG<<<<<<<<<<<<<<<<<<<<<<<',
          'M000004264TWN6803029M9801048F122187664<<<<66',
        ],
      },
      {
        path: 'passporteye/mrz/testdata/53_id-d.jpg',
        name: 'passporteye_53_id-d',
        verifies: true,
        zone: [
          'IDD<<T220001293<<<<<<<<<<<<<<<',
          '6408125<2010315D<<<<<<<<<<<<<4',
          'MUSTERMANN<<ERIKA<<<<<<<<<<<<<',
        ],
      },
      {
        path: 'passporteye/mrz/testdata/62_pass-pol.png',
        name: 'passporteye_62_pass-pol',
        verifies: true,
        zone: [
          'P<POLKOWALSKA<<ANNA<<<<<<<<<<<<<<<<<<<<<<<<<',
          'ZS00001774POL7203305F1607130<<<<<<<<<<<<<<08',
        ],
      },
      {
        path: 'passporteye/mrz/testdata/77_card-cmw.png',
        name: 'passporteye_77_card-cmw',
        verifies: false,
        zone: [
          'IDCMW<512849702<<<<<<<<<<<<<<<',
          '6104128M1402209CMW<<<<<<<<<<<1',
          'PUBLIC<<JON<<<<<<<<<<<<<<<<<<<',
        ],
      },
      {
        path: 'passporteye/mrz/testdata/79_pass-can.jpg',
        name: 'passporteye_79_pass-can',
        verifies: true,
        zone: [
          'P<CANMARTIN<<SARAH<<<<<<<<<<<<<<<<<<<<<<<<<<',
          'ZE000509<9CAN8501019F2301147<<<<<<<<<<<<<<08',
        ],
      },
      {
        path: 'passporteye/mrz/testdata/79_pass-hun.png',
        name: 'passporteye_79_pass-hun',
        verifies: true,
        zone: [
          'P<HUNHANDRA<<ROZALIA<IRMA<<<<<<<<<<<<<<<<<<<',
          'BD00020282HUN7802225F2203012<<<<<<<<<<<<<<06',
        ],
      },
      {
        path: 'passporteye/mrz/testdata/98_pass-nld.jpg',
        name: 'passporteye_98_pass-nld',
        verifies: true,
        zone: [
          'P<NLDMEULENDIJK<<LOES<ALBERTINE<<<<<<<<<<<<<',
          'XA00000148NLD7110195F0604121123456782<<<<<02',
        ],
      },
      {
        path: 'passporteye/mrz/testdata/62_pass-aus.png',
        name: 'passporteye_62_pass-aus',
        verifies: true,
        zone: [
          'P<AUSCITIZEN<<JANE<<<<<<<<<<<<<<<<<<<<<<<<<<',
          'PA09404097AUS8406077F1903212<17331334P<<<<08',
        ],
      },
      {
        path: 'passporteye/mrz/testdata/0_pass-lva.jpg',
        name: 'passporteye_0_pass-lva',
        verifies: true,
        zone: [
          'PALVAMOHAMADA<<FARIDA<<<<<<<<<<<<<<<<<<<<<<<',
          'LT00000004XXC8605102F1210314111111<11648<<86',
        ],
      },
      {
        path: 'tests/data/passport-td2.jpg',
        name: 'passporteye_passport-td2',
        verifies: true,
        zone: ['I<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<', 'D231458907UTO7408122F1204159<<<<<<<6'],
      },
      {
        path: 'tests/data/passport-td2.png',
        name: 'passporteye_passport-td2_png',
        verifies: true,
        zone: ['I<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<', 'D231458907UTO7408122F1204159<<<<<<<6'],
      },
      {
        path: 'tests/data/passport-td3.jpg',
        name: 'passporteye_passport-td3',
        verifies: true,
        zone: [
          'P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<',
          'L898902C36UTO7408122F1204159ZE184226B<<<<<10',
        ],
      },
      {
        path: 'tests/data/passport-td3.png',
        name: 'passporteye_passport-td3_png',
        verifies: true,
        zone: [
          'P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<',
          'L898902C36UTO7408122F1204159ZE184226B<<<<<10',
        ],
      },
    ],
  },
  {
    repo: 'Arg0s1080/mrz',
    commit: 'c462e0c8ca72f0396b9d1d17062434cd1c32b76a',
    licence: 'GPL-3.0',
    documents: [
      {
        path: 'docs/images/id_cards/Latvia.png',
        name: 'mrz_id_cards_latvia',
        verifies: true,
        zone: [
          'I<LVAPA99929216121282<88882<<<',
          '8212122M1703054LVA<<<<<<<<<<<0',
          'PARAUDZINS<<ANDRIS<<<<<<<<<<<<',
        ],
      },
      {
        path: 'docs/images/id_cards/Liechtenstein.png',
        name: 'mrz_id_cards_liechtenstein',
        verifies: true,
        zone: [
          'IDLIEID98754015<<<<<<<<<<<<<<<',
          '8205122F1906224LIE<<<<<<<<<<<6',
          'OSPELTBECK<<MARISA<<<<<<<<<<<<',
        ],
      },
      {
        path: 'docs/images/id_cards/Lithuania.png',
        name: 'mrz_id_cards_lithuania',
        verifies: true,
        zone: [
          'I<LTU11810187<346411231034<<<<',
          '6411231F1901012LTU<<<<<<<<<<<9',
          'BASANAVICIENE<<BIRUTE<<<<<<<<<',
        ],
      },
      {
        path: 'docs/images/id_cards/Malta_BAD.png',
        name: 'mrz_id_cards_malta_bad',
        verifies: false,
        zone: [
          'IDMLT9999999<<3<9999999M<999<<',
          '7309258F0810245MLT0310240<<<<5',
          'SPITERI<MANDY<<<<<<<<<<<<<<<<<',
        ],
      },
      {
        path: 'docs/images/id_cards/Monaco.png',
        name: 'mrz_id_cards_monaco',
        verifies: true,
        zone: [
          'I<MCO029067<<<0<<<<<<<<<<<<<<<',
          '9901018F0903248MCO<<<<<<<<<<<0',
          'SPECIMEN<<SPECIMEN<<<<<<<<<<<<',
        ],
      },
      {
        path: 'docs/images/id_cards/Spain.png',
        name: 'mrz_id_cards_spain',
        verifies: true,
        zone: [
          'IDESPBAA000589599999999R<<<<<<',
          '8001014F2501017ESP<<<<<<<<<<<7',
          'ESPANOLA<ESPANOLA<<CARMEN<<<<<',
        ],
      },
      {
        path: 'docs/images/id_cards/Sweden.png',
        name: 'mrz_id_cards_sweden',
        verifies: true,
        zone: [
          'I<SWE59000002<8198703142391<<<',
          '8703145M1701027SWE<<<<<<<<<<<8',
          'SPECIMEN<<SVEN<<<<<<<<<<<<<<<<',
        ],
      },
      {
        path: 'docs/images/id_cards/Serbia.png',
        name: 'mrz_id_cards_serbia',
        verifies: true,
        zone: [
          'IDSRB95555554612902968000000<<',
          '6802295F1307245SRB<<<<<<<<<<<6',
          'TEST<<MILICA<<<<<<<<<<<<<<<<<<',
        ],
      },
      {
        path: 'docs/images/other/TD2_ICAO_Example.png',
        name: 'mrz_other_td2_icao_example',
        verifies: true,
        zone: ['I<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<', 'D231458907UTO7408122F1204159<<<<<<<6'],
      },
      {
        path: 'docs/images/other/USA_Border_Crosser.png',
        name: 'mrz_other_usa_border_crosser',
        verifies: false,
        zone: [
          'A3USA085043401<01<9108<<<<<<<<',
          '7006171F0108168<<<<<<A5AA37743',
          'GONZALEZ<MENDEZ<<CRISTINA<MARI',
        ],
      },
      {
        path: 'docs/images/passports/Canada.png',
        name: 'mrz_passports_canada',
        verifies: true,
        zone: [
          'P<CANMARTIN<<SARAH<<<<<<<<<<<<<<<<<<<<<<<<<<',
          'ZE000509<9CAN8501019F2301147<<<<<<<<<<<<<<08',
        ],
      },
      {
        path: 'docs/images/passports/China.png',
        name: 'mrz_passports_china',
        verifies: true,
        zone: [
          'P<TWNLIN<<MEI<HUA<<<<<<<<<<<<<<<<<<<<<<<<<<<',
          '0000000000TWN7601015F1404018A234567893<<<<18',
        ],
      },
      {
        path: 'docs/images/passports/Czech_Republic.png',
        name: 'mrz_passports_czech_republic',
        verifies: true,
        zone: [
          'P<CZESPECIMEN<<VZOR<<<<<<<<<<<<<<<<<<<<<<<<<',
          '99003853<1CZE1101018M1207046110101111<<<<<94',
        ],
      },
      {
        path: 'docs/images/passports/ICAO_Example.png',
        name: 'mrz_passports_icao_example',
        verifies: true,
        zone: [
          'P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<',
          'L898902C36UTO7408122F1204159ZE184226B<<<<<10',
        ],
      },
      {
        path: 'docs/images/passports/ICAO_Example2.png',
        name: 'mrz_passports_icao_example2',
        verifies: false,
        zone: [
          'P<ASUMXHMWD<EBDALRXHYM<<<<<<<<<<<<<<<<<<<<<<',
          'A2222222<0ASU7108211M04120401000146819<<<<33',
        ],
      },
      {
        path: 'docs/images/passports/Iceland.png',
        name: 'mrz_passports_iceland',
        verifies: true,
        zone: [
          'PAISLAEVARSDOTTIR<<THURIDUR<OESP<<<<<<<<<<<<',
          'A2040611<0ISL1212123F1106297121212<1239<<<66',
        ],
      },
      {
        path: 'docs/images/passports/Interpol.png',
        name: 'mrz_passports_interpol',
        verifies: false,
        zone: [
          'P<INPSPECIMEN<<SAMPLE<<<<<<<<<<<<<<<<<<<<<<<',
          'XX000000<0FRA7501012F19073021234567890<<<<70',
        ],
      },
      {
        path: 'docs/images/passports/Japan.png',
        name: 'mrz_passports_japan',
        verifies: true,
        zone: [
          'P<JPNGAIMU<<SAKURA<<<<<<<<<<<<<<<<<<<<<<<<<<',
          'XS12345673JPN7902206F1603202<<<<<<<<<<<<<<02',
        ],
      },
      {
        path: 'docs/images/passports/Qatar.png',
        name: 'mrz_passports_qatar',
        verifies: true,
        zone: [
          'P<QATAL<KAABI<<ALI<HAMAD<ABDULLAH<<<<<<<<<<<',
          '00000000<0QAT7103070M110725012345458902<<<78',
        ],
      },
      {
        path: 'docs/images/passports/Ukraine.png',
        name: 'mrz_passports_ukraine',
        verifies: true,
        zone: [
          'P<UKRTKACHENKO<<MARIANA<<<<<<<<<<<<<<<<<<<<<',
          'XX000000<0UKR9108242F23092571234567890<<<<70',
        ],
      },
      {
        path: 'docs/images/resident_cards/France.png',
        name: 'mrz_resident_cards_france',
        // The 14th character was transcribed `0` at first. At 8 px OCR-B's `O` and `0` look alike, and the
        // printed zone verifies with `O` and not with `0`: the document number's check digit and the
        // composite check digit both pass with `O`, and both fail with `0`. A transcription slip that two
        // printed check digits both happen to agree with is about a 1-in-100 chance, so the print is `O`.
        // Two convolutional classifiers read `O` there too (docs/verification.md).
        verifies: true,
        zone: [
          'IRFRAK682T8YLO0<1105040043<<<<',
          '7906123F1401073SEN<<<<<<<<<<<6',
          'MARTIN<<CHRISTELLE<HELENE<LAUR',
        ],
      },
      {
        path: 'docs/images/resident_cards/Germany.png',
        name: 'mrz_resident_cards_germany',
        verifies: true,
        zone: [
          'ARD<<Y701001V51<<<<<<<<<<<<<<<',
          '7611027M1609189IND<<<<<<<<<<<2',
          'SINGH<<JASIN<ALI<<<<<<<<<<<<<<',
        ],
      },
      {
        path: 'docs/images/resident_cards/Netherland.png',
        name: 'mrz_resident_cards_netherland',
        verifies: true,
        zone: [
          'ITNLD52151673<4VNR1234567890<<',
          '9404014F1106172CHE<I<28<<<<<<2',
          'BELSER<<JULIETTE<HENRIKE<SOPHI',
        ],
      },
      {
        path: 'docs/images/resident_cards/Portugal.png',
        name: 'mrz_resident_cards_portugal',
        verifies: true,
        zone: [
          'IRPRT1234AZ5679<<<<<<<<<<<<<<<',
          '7404076F0912220BRA<<<<<<<<<<<4',
          'GARCAO<DE<MAGALHAES<<INES<<<<<',
        ],
      },
      {
        path: 'docs/images/resident_cards/UK.png',
        name: 'mrz_resident_cards_uk',
        verifies: false,
        zone: [
          'IRGBRZU12345673<<<<<<<<<<<<<<<',
          '6608198F0808088COU<<<<<<<<<<<6',
          'SAMPLE<<SUSANNA<<<<<<<<<<<<<<<',
        ],
      },
      {
        path: 'docs/images/resident_cards/USA.png',
        name: 'mrz_resident_cards_usa',
        verifies: false,
        zone: [
          'C1USA0000000392SRC0000000039<<',
          '2001010F8001022SLV<<<<<<<<<<<0',
          'VOID<<VOID<<<<<<<<<<<<<<<<<<<<',
        ],
      },
      {
        path: 'docs/images/resident_cards/USA_Permanent.png',
        name: 'mrz_resident_cards_usa_permanent',
        verifies: false,
        zone: [
          'C1USA0223456791EAC9730053465<<',
          '4910040M9411014CAN<<<<<<<<<<<9',
          'CRITTENDEN<<LEE<W<<<<<<<<<<<<<',
        ],
      },
      {
        path: 'docs/images/visas/France.png',
        name: 'mrz_visas_france',
        verifies: false,
        zone: ['VCFRASPECIMEN<<SPECIMEN<<<<<<<<<<<<<', 'F000000005UTO0311063M1401143<M300703'],
      },
      {
        path: 'docs/images/visas/MRVA_ICAO_Example.png',
        name: 'mrz_visas_mrva_icao_example',
        verifies: false,
        zone: [
          'V<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<',
          'L8988901C4XXX4009078F96121096ZE184226B<<<<<<',
        ],
      },
      {
        path: 'docs/images/visas/MRVB_ICAO_Example.png',
        name: 'mrz_visas_mrvb_icao_example',
        verifies: false,
        zone: ['V<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<', 'L8988901C4XXX4009078F9612109<<<<<<<<'],
      },
      {
        path: 'docs/images/visas/USA.png',
        name: 'mrz_visas_usa',
        verifies: false,
        zone: [
          'VNUSATRAVELER<<HAPPY<<<<<<<<<<<<<<<<<<<<<<<<',
          '1234567897CAN6612120M1407282B3XLC000FD142955',
        ],
      },
      {
        path: 'docs/images/visas/USA2.png',
        name: 'mrz_visas_usa2',
        verifies: false,
        zone: [
          'VIUSATRAVELER<<HAPPYPERSON<<<<<<<<<<<<<<<<<<',
          '555123ABC6GBR6502056F0412236IFLND00AMS803085',
        ],
      },
    ],
  },
  {
    repo: 'DoubangoTelecom/ultimateMRZ-SDK',
    commit: 'db64de7a955de75c2b554f44923d0eedffe9cd56',
    licence: 'Doubango non-commercial (LICENSE: "For non commercial use only")',
    documents: [
      {
        path: 'assets/images/Czech_passport_2005_MRZ_orient1_1300x1002.jpg',
        name: 'ultimatemrz_czech_passport_2005_mrz_orient1_1300x1002',
        verifies: false,
        zone: [
          'P<CZESPECIMEN<<VZOR<<<<<<<<<<<<<<<<<<<<<<<<<',
          '99006000<8CZE1102299F16090641152291111<<<<24',
        ],
      },
      {
        path: 'assets/images/Czech_passport_2005_MRZ_orient2_1300x1002.jpg',
        name: 'ultimatemrz_czech_passport_2005_mrz_orient2_1300x1002',
        verifies: false,
        zone: [
          'P<CZESPECIMEN<<VZOR<<<<<<<<<<<<<<<<<<<<<<<<<',
          '99006000<8CZE1102299F16090641152291111<<<<24',
        ],
      },
      {
        path: 'assets/images/Czech_passport_2005_MRZ_orient3_1300x1002.jpg',
        name: 'ultimatemrz_czech_passport_2005_mrz_orient3_1300x1002',
        verifies: false,
        zone: [
          'P<CZESPECIMEN<<VZOR<<<<<<<<<<<<<<<<<<<<<<<<<',
          '99006000<8CZE1102299F16090641152291111<<<<24',
        ],
      },
      {
        path: 'assets/images/Czech_passport_2005_MRZ_orient4_1300x1002.jpg',
        name: 'ultimatemrz_czech_passport_2005_mrz_orient4_1300x1002',
        verifies: false,
        zone: [
          'P<CZESPECIMEN<<VZOR<<<<<<<<<<<<<<<<<<<<<<<<<',
          '99006000<8CZE1102299F16090641152291111<<<<24',
        ],
      },
      {
        path: 'assets/images/Czech_passport_2005_MRZ_orient5_1300x1002.jpg',
        name: 'ultimatemrz_czech_passport_2005_mrz_orient5_1300x1002',
        verifies: false,
        zone: [
          'P<CZESPECIMEN<<VZOR<<<<<<<<<<<<<<<<<<<<<<<<<',
          '99006000<8CZE1102299F16090641152291111<<<<24',
        ],
      },
      {
        path: 'assets/images/Czech_passport_2005_MRZ_orient6_1300x1002.jpg',
        name: 'ultimatemrz_czech_passport_2005_mrz_orient6_1300x1002',
        verifies: false,
        zone: [
          'P<CZESPECIMEN<<VZOR<<<<<<<<<<<<<<<<<<<<<<<<<',
          '99006000<8CZE1102299F16090641152291111<<<<24',
        ],
      },
      {
        path: 'assets/images/Czech_passport_2005_MRZ_orient7_1300x1002.jpg',
        name: 'ultimatemrz_czech_passport_2005_mrz_orient7_1300x1002',
        verifies: false,
        zone: [
          'P<CZESPECIMEN<<VZOR<<<<<<<<<<<<<<<<<<<<<<<<<',
          '99006000<8CZE1102299F16090641152291111<<<<24',
        ],
      },
      {
        path: 'assets/images/Czech_passport_2005_MRZ_orient8_1300x1002.jpg',
        name: 'ultimatemrz_czech_passport_2005_mrz_orient8_1300x1002',
        verifies: false,
        zone: [
          'P<CZESPECIMEN<<VZOR<<<<<<<<<<<<<<<<<<<<<<<<<',
          '99006000<8CZE1102299F16090641152291111<<<<24',
        ],
      },
      {
        path: 'assets/images/Passport-Australia_1280x720.jpg',
        name: 'ultimatemrz_passport-australia_1280x720',
        verifies: true,
        zone: [
          'P<AUSCITIZEN<<JANE<<<<<<<<<<<<<<<<<<<<<<<<<<',
          'PA09404433AUS8406077F1903212<17332717P<<<<68',
        ],
      },
      {
        path: 'assets/images/Passport-Australia_1280x720_rotate+90.jpg',
        name: 'ultimatemrz_passport-australia_1280x720_rotate+90',
        verifies: true,
        zone: [
          'P<AUSCITIZEN<<JANE<<<<<<<<<<<<<<<<<<<<<<<<<<',
          'PA09404433AUS8406077F1903212<17332717P<<<<68',
        ],
      },
      {
        path: 'assets/images/Passport-Australia_1280x720_rotate-90.jpg',
        name: 'ultimatemrz_passport-australia_1280x720_rotate-90',
        verifies: true,
        zone: [
          'P<AUSCITIZEN<<JANE<<<<<<<<<<<<<<<<<<<<<<<<<<',
          'PA09404433AUS8406077F1903212<17332717P<<<<68',
        ],
      },
    ],
  },
  {
    repo: 'image-js/mrz-detection',
    commit: 'f86da8f7ea14960d4fab9de22da5cc02098b678e',
    licence: 'MIT',
    documents: [
      {
        path: 'src/__tests__/fixtures/id1.jpg',
        name: 'mrz-detection_id1',
        verifies: false,
        zone: ['IDFRABERTHIER<<<<<<<<<<<<<<<<<<<<<<<', '9409923102854CORINNE<<<<<<<6512068F4'],
      },
      {
        path: 'src/__tests__/fixtures/id2.jpg',
        name: 'mrz-detection_id2',
        verifies: true,
        zone: [
          'P<ESTMAENNIK<<MARI<LIIS<<<<<<<<<<<<<<<<<<<<<',
          'KB00000003EST7501229F120522647501220010<<<02',
        ],
      },
      {
        path: 'src/__tests__/fixtures/id_fail.png',
        name: 'mrz-detection_id_fail',
        verifies: false,
        zone: [
          'IDAUT000009993<<<<<<<<<<<<<<<<',
          '7109094F111231AUT<<<<<<<<<<<<0',
          'MUSTERFRAU<<ISOLDE<<<<<<<<<<<<',
        ],
      },
    ],
  },
  {
    repo: 'sivakumar-mahalingam/fastmrz',
    commit: 'bb1d4ee38eb1eaa88cd80e1eba88bacc1842cd76',
    licence: 'AGPL-3.0',
    documents: [
      {
        path: 'data/td1.jpg',
        name: 'fastmrz_td1',
        verifies: true,
        zone: [
          'I<UTOD231458907<<<<<<<<<<<<<<<',
          '7408122F1204159UTO<<<<<<<<<<<6',
          'ERIKSSON<<ANNA<MARIA<<<<<<<<<<',
        ],
      },
      {
        path: 'data/td2.jpg',
        name: 'fastmrz_td2',
        verifies: true,
        zone: ['I<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<', 'D231458907UTO7408122F1204159<<<<<<<6'],
      },
      {
        path: 'data/td3.jpg',
        name: 'fastmrz_td3',
        verifies: true,
        zone: [
          'P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<',
          'L898902C36UTO7408122F1204159ZE184226B<<<<<10',
        ],
      },
      {
        path: 'data/mrva.jpg',
        name: 'fastmrz_mrva',
        verifies: false,
        zone: [
          'V<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<',
          'L8988901C4XXX4009078F96121096ZE184226B<<<<<<',
        ],
      },
      {
        path: 'data/mrvb.jpg',
        name: 'fastmrz_mrvb',
        verifies: false,
        zone: ['V<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<', 'L8988901C4XXX4009078F9612109<<<<<<<<'],
      },
    ],
  },
];

export interface DocumentSetFile extends DocumentSpecimen {
  repo: string;
  commit: string;
  licence: string;
  /** `zone-verifies` or `zone-does-not-verify`. */
  folder: 'zone-verifies' | 'zone-does-not-verify';
}

/**
 * Every image of the set with the folder it goes to, in list order.
 *
 * @example
 * documentSetFiles().length // 88
 */
export function documentSetFiles(
  sources: readonly DocumentSetSource[] = DOCUMENT_SET_SOURCES,
): DocumentSetFile[] {
  return sources.flatMap((source) =>
    source.documents.map((document) => ({
      ...document,
      repo: source.repo,
      commit: source.commit,
      licence: source.licence,
      folder: document.verifies ? ('zone-verifies' as const) : ('zone-does-not-verify' as const),
    })),
  );
}

/**
 * The main set (`DOCUMENT_SET_SOURCES`), the held-out one (document-holdout-sources.ts), the second
 * held-out one (document-holdout2-sources.ts), the third (document-holdout3-sources.ts) or the fourth
 * (document-holdout4-sources.ts).
 */
export type DocumentSetName = 'main' | 'held-out' | 'held-out-2' | 'held-out-3' | 'held-out-4';

const SOURCES_OF_SET: Readonly<Record<DocumentSetName, readonly DocumentSetSource[]>> = {
  main: DOCUMENT_SET_SOURCES,
  'held-out': HELD_OUT_DOCUMENT_SOURCES,
  'held-out-2': SECOND_HELD_OUT_DOCUMENT_SOURCES,
  'held-out-3': THIRD_HELD_OUT_DOCUMENT_SOURCES,
  'held-out-4': FOURTH_HELD_OUT_DOCUMENT_SOURCES,
};

function isDocumentSetName(name: string | undefined): name is DocumentSetName {
  return name !== undefined && Object.hasOwn(SOURCES_OF_SET, name);
}

/**
 * The image as the set keeps it. The main set keeps JPEGs and re-encodes PNGs as JPEG (quality 95), as it
 * always has, so its figures stay comparable; the held-out set keeps JPEGs and PNGs (both what the API
 * takes) and writes BMPs, which the API refuses, as PNG, losslessly.
 */
async function servedImage(
  bytes: Buffer,
  path: string,
  set: DocumentSetName,
  sharp: typeof import('sharp').default,
): Promise<{ image: Buffer; extension: string; converted: string }> {
  const isJpeg = /\.jpe?g$/i.test(path) && bytes[0] === 0xff && bytes[1] === 0xd8;
  const isBmp = bytes.toString('latin1', 0, 2) === 'BM';
  if (isJpeg) return { image: bytes, extension: '.jpg', converted: '' };
  if (set === 'main') {
    const image = await sharp(bytes).jpeg({ quality: 95 }).toBuffer();
    return { image, extension: '.jpg', converted: ' (PNG re-encoded as JPEG)' };
  }
  if (isBmp) {
    const { data, width, height } = decodeBmp(bytes);
    const image = await sharp(data, { raw: { width, height, channels: 3 } })
      .png()
      .toBuffer();
    return { image, extension: '.png', converted: ' (a BMP, written as PNG)' };
  }
  return { image: bytes, extension: extname(path).toLowerCase(), converted: '' };
}

/**
 * Writes the set to `outDir` from the clones under `reposDir`; refuses an image missing at its commit, an
 * empty one, or two with the same bytes.
 *
 * @example
 * await buildDocumentSet('/work/.mirror', '/work/data/documents') // { images: 88, … }
 */
export async function buildDocumentSet(
  reposDir: string,
  outDir: string,
  set: DocumentSetName = 'main',
): Promise<{ images: number; verifies: number; doesNotVerify: number }> {
  const { default: sharp } = await import('sharp');
  const read = setFileReader(reposDir);
  const rows: string[] = [];
  let verifies = 0;
  for (const entry of documentSetFiles(SOURCES_OF_SET[set])) {
    const bytes = read(entry);
    const { image, extension, converted } = await servedImage(bytes, entry.path, set, sharp);
    const folder = join(outDir, 'real', entry.folder);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, `${entry.name}${extension}`), image);
    writeFileSync(join(folder, `${entry.name}.mrz`), `${entry.zone.join('\n')}\n`);
    if (entry.verifies) verifies++;
    rows.push(
      `| real/${entry.folder}/${entry.name}${extension} | ${entry.repo} | ${entry.path}${converted} | ${entry.commit.slice(0, 12)} | ${entry.licence} |`,
    );
  }
  writeFileSync(
    join(outDir, 'SOURCES.md'),
    [
      `# Real document specimens${set === 'main' ? '' : `, ${set}`} (bench:accuracy --documents <dir>/real)`,
      '',
      'Written by bench/accuracy/document-set-sources.ts: each image is the unchanged bytes of the file named, at',
      `the commit given (${set === 'main' ? 'PNGs re-encoded as JPEG' : 'BMPs written as PNG'}), and each \`.mrz\` the zone as printed, transcribed by eye. The`,
      "licences are the repositories'; the documents are specimens of governments, ICAO and vendors that those",
      'licences do not cover: keep them out of any repository.',
      '',
      `${rows.length} images: ${verifies} in zone-verifies, ${rows.length - verifies} in zone-does-not-verify.`,
      '',
      '| file | repository | path | commit | licence |',
      '| --- | --- | --- | --- | --- |',
      ...rows,
      '',
    ].join('\n'),
  );
  return { images: rows.length, verifies, doesNotVerify: rows.length - verifies };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: { repos: { type: 'string' }, out: { type: 'string' }, set: { type: 'string', default: 'main' } },
  });
  if (!values.repos || !values.out || !isDocumentSetName(values.set)) {
    console.error(
      'usage: node bench/accuracy/document-set-sources.ts --repos <dir of git clones> --out <dir> [--set main|held-out|held-out-2|held-out-3|held-out-4]',
    );
    process.exit(2);
  }
  const { images, verifies, doesNotVerify } = await buildDocumentSet(
    resolve(values.repos),
    resolve(values.out),
    values.set,
  );
  console.log(
    `${images} images (${verifies} zone-verifies, ${doesNotVerify} zone-does-not-verify) written to ${values.out}`,
  );
}
