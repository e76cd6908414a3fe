"""What surrounds a candidate value: digit boundaries, full-width forms, labels that name
another kind of number, amounts. Shared by every rule of the pack."""

from __future__ import annotations

from .... import _lazy_re as lazy_re
from .. import RuleContext

# Full-width forms are what Chinese input methods type; one table maps them (1:1, so offsets
# stay valid) to ASCII before a value is checked.
_WIDE = str.maketrans(
    "０１２３４５６７８９ＸｘＡＢＣＤＥＦＧＨＪＫＬＭＮＰＱＲＳＴＵＶＷＹＺ＠－　＋．",
    "0123456789XxABCDEFGHJKLMNPQRSTUVWYZ@- +.",
)

DIGITS = frozenset("0123456789０１２３４５６７８９")
_ALNUM = frozenset(
    "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
    "０１２３４５６７８９ＡＢＣＤＥＦＧＨＩＪＫＬＭＮＯＰＱＲＳＴＵＶＷＸＹＺ"
    "ａｂｃｄｅｆｇｈｉｊｋｌｍｎｏｐｑｒｓｔｕｖｗｘｙｚ"
)
# a mask character glued to a number means the number is (partly) masked: 138****5678
_GLUED = _ALNUM | frozenset("_*＊")
_SEPARATORS = frozenset(" -　－")

# Where the pack's values can be: ten characters of a digit run (separators allowed, after
# the first digit too, as in a number with every digit spaced; dots too: 139.0000.0070, and a
# bracket for an area code), a full-width digit, a capital letter that starts a licence plate
# (a province before it) or a passport number (six digits after it). Every span a rule of the
# pack flags holds a match (has_trigger checks), except the e-mail rule's.
# For has_trigger: one pattern led by a character class, against the engine's advice of a
# literal first (it runs on a candidate's span only, never on the whole text).
PROVINCES = "京津沪渝冀豫云辽黑湘皖鲁新苏浙赣鄂桂甘晋蒙陕吉闽贵粤青藏川宁琼"
PLATE_LETTER = "A-HJ-NP-Z"  # plates use no I and no O
_COMBINED = (
    "[0-9０-９A-Z](?:(?<=[0-9])[0-9 \t\\-)）　－.．]{9}|(?<=[０-９])"
    f"|(?<=[{PROVINCES}][{PLATE_LETTER}])[·•・. \\-]?[{PLATE_LETTER}0-9]{{4}}"
    "|(?<=[A-Z])[A-Z]?[0-9]{6})"
)
_TRIGGER = lazy_re.compile(_COMBINED)
# The same as the engine's trigger, one pattern per kind of value, so that each rule scans only
# the windows of the kinds it reads (ctx.finditer's ``part``: DIGIT_PARTS for digit runs).
TRIGGER = (
    "[0-9][0-9 \t\\-)）　－.．]{9}",
    "[０-９]",
    f"[{PROVINCES}][{PLATE_LETTER}][·•・. \\-]?[{PLATE_LETTER}0-9]{{4}}",
    "[A-Z][A-Z]?[0-9]{6}",
)
WIDE_PART = 1
DIGIT_PARTS = (0, WIDE_PART)
PLATE_PART = 2
SERIAL_PARTS = (1, 3)  # a letter and digits, in ASCII or in full width


def wide(text: str, ctx: RuleContext) -> bool:
    """Whether the text holds a full-width digit. Most texts hold none: the rules then scan
    with ASCII classes, which re tests faster (same findings: a full-width class matches
    nothing there). Once per text (ctx.memo)."""
    if ctx.part_windows is not None and len(ctx.part_windows) == len(TRIGGER):
        # the engine has found every full-width digit already (TRIGGER[WIDE_PART]) for the
        # rules whose trigger is TRIGGER, the only callers
        return bool(ctx.part_windows[WIDE_PART])
    cached = ctx.memo.get("sensitive.wide")
    if cached is not None and cached[0] is text:
        return cached[1]
    found = any(d in text for d in "０１２３４５６７８９")
    ctx.memo["sensitive.wide"] = (text, found)
    return found


def ascii_form(value: str) -> str:
    """``value`` with full-width digits, letters and separators as ASCII (same length)."""
    return value.translate(_WIDE)


def free_left(text: str, pos: int, extra: str = "") -> bool:
    """Nothing number-like (or a mask) glued to the left: not part of a longer number."""
    if pos == 0:
        return True
    ch = text[pos - 1]
    if ch in _GLUED or ch in extra:
        return False
    # the fraction of a decimal (3.1415926535897932) is not a number of its own
    return not (ch in ".．" and pos >= 2 and text[pos - 2] in DIGITS)


def free_right(text: str, end: int, extra: str = "") -> bool:
    """Nothing number-like (or a mask) glued to the right."""
    if end >= len(text):
        return True
    ch = text[end]
    if ch in _GLUED or ch in extra:
        return False
    return not (ch in ".．" and end + 1 < len(text) and text[end + 1] in DIGITS)


def run_free(text: str, start: int, end: int) -> bool:
    """A digit group is a whole number: free on both sides, and not one group of a longer
    grouped run (``2023-`` or ``- 12`` glued by a separator)."""
    if not (free_left(text, start) and free_right(text, end)):
        return False
    if start >= 2 and text[start - 1] in _SEPARATORS and text[start - 2] in DIGITS:
        return False
    # an X check character ends an ID: what follows it is another number
    return text[end - 1] in "XxＸｘ" or not (
        end + 1 < len(text) and text[end] in _SEPARATORS and text[end + 1] in DIGITS
    )


def has_trigger(text: str, start: int, end: int) -> bool:
    """Whether the span holds a match of :data:`TRIGGER` (the engine's windows only guarantee
    to cover spans that do, so a span without one is never reported)."""
    return _TRIGGER.search(text, start, end) is not None


# A label right before the value that names a number which is not personal data: an order,
# invoice, case or serial number, a model; or a currency. Only separators (a colon, 为,
# spaces, No.) may stand between it and the value. Tested with str.endswith on a tuple: this
# runs for every candidate number, and a regex search over the text before it costs ten
# times more.
_OTHER_KINDS = [
    "单",
    "订单",
    "运单",
    "快递单",
    "物流单",
    "提单",
    "流水",
    "交易",
    "发票",
    "票据",
    "合同",
    "案",
    "批次",
    "序列",
    "凭证",
    "业务",
    "申请",
    "专利",
    "登记",
    "注册",
    "备案",
    "证书",
    "许可证",
    "许可",
    "工",
    "学",
    "货",
    "型",
    "产品",
    "批准文",
    "文",
    "报告",
    "追踪",
    "跟踪",
    "参考",
    "行",
    "联行",
    "执照",
    "执业证",
    "串",
    "设备",
    "IMEI",
    "MEID",
]
_OTHER_LABELS = (
    *(kind + suffix for kind in _OTHER_KINDS for suffix in ("号", "编号", "号码", "代码", "ID")),
    *[
        "编号",
        "IMEI",
        "MEID",
        "¥",
        "￥",
        "$",
        "＄",
        "人民币",
        "RMB",
        "金额",
        "价款",
        "本金",
        "USD",
        "CNY",
    ],
)
_OTHER_LATIN = tuple(
    kind + suffix
    for kind in [
        "order",
        "invoice",
        "tracking",
        "transaction",
        "ref",
        "reference",
        "serial",
        "case",
    ]
    for suffix in ("", " no", " no.", "no", "no.", " number", " id", " #", "#")
)
_LABEL_GAP = " \t　:：#＃=为是"


def other_kind_before(text: str, start: int) -> bool:
    """The value follows a label of an order, invoice, case or serial number, or a currency."""
    head = text[max(0, start - 24) : start].rstrip(_LABEL_GAP)
    if head.endswith(_OTHER_LABELS):
        return True
    if not head[-1:].isascii():
        return False
    head = head.lower()
    if head.endswith(("no", "no.")) and not head.endswith(_OTHER_LATIN):
        head = head[: -3 if head.endswith(".") else -2].rstrip(_LABEL_GAP)  # 订单号 No.
        return head.endswith(_OTHER_LABELS)
    return head.endswith(_OTHER_LATIN)


_AMOUNT_RIGHT = frozenset("元万亿%％圆块")

# The labels of a bank account number, as they stand right before it (a colon or 为 between).
_ACCOUNT_LABEL = lazy_re.compile(
    r"(?:账号|帐号|卡号|账户|帐户)(?:号码)?|(?:Acct|ACCT)\.?[ \t]{0,4}(?:[Nn]o\.?|NO\.?)?"
    r"|(?:[Aa]ccount|ACCOUNT)[ \t]{0,4}(?:[Nn]o\.?|NO\.?|[Nn]umber|NUMBER|#)?"
    r"|A/C[ \t]{0,4}(?:[Nn]o\.?)?"
)
_ACCOUNT_GAP = lazy_re.compile(r"[ \t　]{0,8}(?:[:：]|为|是)?[ \t　]{0,8}\Z")
# accounts that are not at a bank: chat, shop, membership, transport, SIM cards
_NOT_BANK = lazy_re.compile(
    r"(?:QQ|qq|微信|用户|登录|登陆|会员|游戏|平台|系统|邮箱|淘宝|抖音|微博|公众|员工|学生|"
    r"积分|加油|公交|门禁|校园|饭|就诊|医保|社保|SIM|sim|储值|购物|礼品|优惠|油|电话|话费|"
    r"交通|地铁|停车|网站|论坛|管理员)\Z"
)


def account_label_before(text: str, start: int) -> bool:
    """A bank account label (账号, 卡号, Account No.) stands right before ``start``."""
    head_start = max(0, start - 24)
    head = text[head_start:start]
    for m in _ACCOUNT_LABEL.finditer(head):
        if _ACCOUNT_GAP.match(head, m.end()):
            label = head_start + m.start()
            return not _NOT_BANK.search(text, max(0, label - 4), label)
    return False


def amount_after(text: str, end: int) -> bool:
    """The number is followed by a unit of money or a percent sign: an amount."""
    i = end
    while i < len(text) and i < end + 2 and text[i] == " ":
        i += 1
    # 万 is a unit (5000万), 万分之五 a rate
    return i < len(text) and text[i] in _AMOUNT_RIGHT and text[i : i + 2] != "万分"


def masked(value: str) -> bool:
    """The value is already masked (张某, 张**, 张X, 北京市朝阳区××路, XX号); a Latin x in a
    word (Lexington) is not a mask."""
    return _MASK.search(value) is not None


_MASK = lazy_re.compile(
    r"[*＊×✕○〇●■□某]|[XxＸｘ]{2}|[\u4e00-\u9fff][XxＸｘ]|[XxＸｘ][\u4e00-\u9fff]|^[XxＸｘ]$"
)


# An organisation's own contact and account data is not personal data (docs/commands/check.md "What is
# sensitive"): the label on the value's line names the organisation (公司电话, 单位邮箱, 对公账户,
# Company Tel), or the account sits under an account name that is an organisation
# (开户名称：某某有限公司 / 账号：…).
_ORG_LABEL = lazy_re.compile(
    r"(?:公司|单位|企业|对公|机构|总部|门店|律所|事务所|本院|法院|学校|医院|集团|商家|店铺)"
    # nothing naming a person between (联系人电话, 法定代表人电话 are a person's)
    r"[^\s：:，,。；;、人]{0,8}?(?:电话|座机|传真|邮箱|电子邮箱|电邮|邮件|账户|账号|帐户|帐号|热线|总机|客服)"
    r"[^\s：:，,。；;、]{0,4}[ \t　]*[:：]?[ \t　]*(?:为|是)?[ \t　]*\Z"
    r"|(?:总机|客服电话|客服热线|服务热线|热线电话|值班电话)[ \t　]*[:：]?[ \t　]*\Z"
    r"|(?i:(?:company|corporate|office|firm|business|head office|switchboard)"
    r"[ \t]*(?:tel(?:ephone)?|phone|fax|e-?mail|account)(?:[ \t]*(?:no\.?|number))?[ \t]*:?[ \t]*\Z)"
    # the English 客服热线: a customer-care or help line is the organisation's own
    r"|(?i:(?:customer[ \t]+(?:care|service|support)|help[ \t]?line|hotline|toll[- ]free)"
    r"(?:[ \t]*(?:tel(?:ephone)?|phone|no\.?|number))?[ \t]*:?[ \t]*\Z)"
)
# a line "label：an organisation" (甲方：某某科技股份有限公司, 开户名称：…有限公司, 户名：…事务所)
_ORG_LINE = lazy_re.compile(
    r"(?m)^(?P<label>[^\n:：]{0,16})[:：][^\n]{0,40}?"
    r"(?:有限公司|有限责任公司|股份公司|公司|集团|事务所|研究院|学校|医院|中心|委员会|"
    r"Ltd|LLC|Inc|Co\.)"
)
# a line that is an organisation's name alone (short, no label, no sentence punctuation): its
# letterhead or footer block (QualityHosting AG / Uferweg 40-42 / … / eMail: info@…), whose
# contact lines below are the organisation's own
_LETTERHEAD = lazy_re.compile(
    r"[^:：，。；;、]{1,40}?(?:有限公司|有限责任公司|股份公司|集团|事务所|"
    r"(?<![A-Za-z])(?:AG|GmbH|Ltd\.?|Limited|Inc\.?|LLC|LLP|PLC|S\.A\.S?\.?|SAS|SARL|Corp\.?|"
    r"Corporation))"
)
_LETTERHEAD_MOST = 48  # characters of a name line at most
_LETTERHEAD_LINES = 6
_LINE_REACH = 300  # a line of a letterhead block is short: a longer one ends the walk
# a contact line of such a block: the value alone, or after its contact label (eMail:, Tel.,
# 电话：); a value inside a sentence (请核实 139…) is not the block's
_CONTACT_END = lazy_re.compile(
    r"(?i)(?:电话|手机|座机|传真|邮箱|电邮|邮件|tel|telephone|phone|fax|e-?mail|mobile)"
    r"[ \t]*[:：.]?[ \t]*\Z"
)
# a line led by the organisation's seat or office (Siège social : … – Tél : … – annonce@…, 公司地址：…
# 电话：…): the contact data on it is the organisation's
_OFFICE_LINE = lazy_re.compile(
    r"[ \t]*(?:公司地址|单位地址|注册地址|办公地址|(?i:registered office|head office|corporate office|"
    r"si[eè]ge social|sitz der gesellschaft))[ \t]*[:：]"
)
# a bank's own name on such a line (开户银行：某某银行股份有限公司…支行) says nothing of the holder
_BANK_LABEL = ("开户行", "开户银行", "开户网点", "银行", "行名", "支行", "Bank")
# a person between the organisation and the account: the account may be theirs
_PERSON_LABEL = lazy_re.compile("联系人|代理人|代表人|负责人|经办人|姓名|收款人|Name")
# a line that is a person's name alone (张三, Ann Lee, Dr. Ann M. Lee): a signature or contact
# block names its person this way, without a label, between the organisation and the number
# (a unit of the organisation, 财务部, Sales Department, is the organisation: not a name)
_NAME_LINE = lazy_re.compile(
    r"(?!.*(?:[部处科室组]|中心|Department|Dept|Office|Team|Division|Desk|Service|Services)\Z)"
    r"(?:[\u4e00-\u9fff]{2,4}"
    r"|(?:(?:Mr|Mrs|Ms|Dr)\.?[ \t]+)?[A-Z][a-z]+(?:[ \t]+[A-Z]\.)?(?:[ \t]+[A-Z][a-z'-]+){1,2})"
)
_ACCOUNT_WORDS = ("账号", "账户", "帐号", "帐户", "卡号", "Account No", "Account Number")


def _column_window(text: str, start: int, line_start: int, ctx: RuleContext | None) -> str | None:
    """In a DOCX table, the cells above the value's cell in its column (a party block laid out
    in columns: 需方：…公司 / 开户银行 / 银行账号 on the left, 供方 on the right), top to bottom,
    then the value's own line; None outside a table."""
    if ctx is None or ctx.kind != "docx" or not ctx.places:
        return None
    from ..placeholder.cells import CellSpans

    cached = ctx.memo.get("sensitive.cells")
    if cached is None or cached[0] is not ctx.places:
        cached = ctx.memo["sensitive.cells"] = (ctx.places, CellSpans(ctx.places, len(text)))
    above = cached[1].column_above(start, rows=_ORG_ROWS)
    if not above:
        return None
    return "\n".join(text[a:b].strip("\r\n") for a, b in above) + "\n" + text[line_start:start]


_ORG_ROWS = 4  # the party line stands at most this many rows (or lines) above its account


def organisation_before(text: str, start: int, ctx: RuleContext | None = None) -> bool:
    """The value is an organisation's own: its label names the organisation, it sits in the
    organisation's letterhead or footer block (:func:`_under_letterhead`), or it is an account
    under an organisation named as its holder (on its line or the four lines before, or in a
    DOCX table the four cells above it in its column)."""
    line_start = text.rfind("\n", 0, start) + 1
    head = text[max(line_start, start - 40) : start]
    if _ORG_LABEL.search(head):
        return True
    if start - line_start <= _LINE_REACH:  # a letterhead's or an office's line is short
        office = _OFFICE_LINE.match(text, line_start, start)
        if office and not _PERSON_LABEL.search(text, office.end(), start):
            return True  # the office's line, with no person named before the value
        if (not head.strip() or _CONTACT_END.search(head)) and _under_letterhead(text, line_start):
            return True
    if not any(word in head for word in _ACCOUNT_WORDS):
        return False
    # the account holder named on this line or up to four lines above (开户名称：…有限公司, or
    # the party line of a contract's party block, 甲方：…股份有限公司 / 开户银行 / 银行帐号), with no
    # person named in between
    window = _column_window(text, start, line_start, ctx)
    if window is None:
        window_start = line_start
        for _ in range(_ORG_ROWS):
            if window_start <= 0:
                break
            window_start = text.rfind("\n", 0, window_start - 1) + 1
        window = text[window_start:start]
    last = None
    for m in _ORG_LINE.finditer(window):
        if not any(word in m.group("label") for word in _BANK_LABEL):
            last = m
    return last is not None and _PERSON_LABEL.search(window, last.end()) is None


def _under_letterhead(text: str, line_start: int) -> bool:
    """The value's line belongs to an organisation's letterhead or footer: the organisation's
    name stands alone on one of the lines above (up to six, one block: no empty line between),
    with no person named between it and the value."""
    end = line_start
    for _ in range(_LETTERHEAD_LINES):
        if end <= 0:
            return False
        start = text.rfind("\n", max(0, end - 1 - _LINE_REACH), end - 1) + 1
        line = text[start : end - 1].strip()
        if not line:
            return False  # an empty line ends the block
        if _PERSON_LABEL.search(line):
            return False  # a person named between the organisation and the value
        if len(line) <= _LETTERHEAD_MOST and _LETTERHEAD.fullmatch(line):
            return True
        if _NAME_LINE.fullmatch(line):
            return False  # … named without a label (Acme Trading Ltd itself is no name)
        if start == 0 or start <= end - 1 - _LINE_REACH:
            return False  # the start of the text, or a line too long to be a block's
        end = start
    return False
