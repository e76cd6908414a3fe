"""Values that only their label makes personal: bank accounts (账号), passports and travel
permits (护照号码, 港澳通行证), and, off by default, names (姓名) and addresses (住址).

Each rule matches its label and the value right after it (a colon, 为 or spaces between), and
reports the value only. The trigger is the label, which stands a few characters before the
value; the engine's windows reach well past a trigger, so they cover the value.
"""

from __future__ import annotations

from collections.abc import Iterable

from .... import _lazy_re as lazy_re
from .. import Hit, Rule, RuleContext
from .context import (
    SERIAL_PARTS,
    TRIGGER,
    account_label_before,
    amount_after,
    free_left,
    free_right,
    has_trigger,
    masked,
    organisation_before,
)

_D = "[0-9０-９]"
# what may stand between a label and its value
# (bounded: the engine's windows reach 200 characters back from a trigger in the value)
_GAP = r"[ \t　]{0,8}(?:[:：]|为|是)?[ \t　]{0,8}"
# a label wrapped onto the next line (Passport / No.: …, or the value on a line of its own, as
# a narrow table cell or a form writes it): one line break allowed on either side of the colon
_BREAK = r"(?:\r?\n[ \t　]{0,8})?"
_LINE_GAP = r"[ \t　]{0,8}" + _BREAK + r"(?:[:：]|为|是)?[ \t　]{0,8}" + _BREAK


class BankAccount(Rule):
    id = "sensitive/bank-account"
    description = (
        "an unmasked bank account number: 10–25 digits after an account label (账号, 银行账号, "
        "卡号, Account No.), with or without a Luhn check"
    )
    bad = (
        "银行账号：1100 6014 9018 0012 345",
        "账号为110060149018001234567",
        "Account No.: 0200-0012-0901-2345",
        "收款卡号：６２２８４８００１２３４５６７８９０",
    )
    good = (
        "账号：6222 **** **** 0128",
        "QQ账号：1234567890",
        "账号余额：1234567890元",
        "会员卡号：1234567890",
        "账号：123456789",
        "账户名称：张三",
    )
    # the value is a digit run: the number rules' triggers, and their scan (one for all)
    trigger = TRIGGER

    def find(self, text: str, ctx: RuleContext) -> Iterable[Hit]:
        from .numbers import digit_runs

        for run in digit_runs(text, ctx):
            if not account_label_before(text, run.start):
                continue
            digits = sum(ch.isdigit() for ch in run.raw)
            if not 10 <= digits <= 25 or run.raw[-1] in "Xx" or len(set(run.raw) & set(" -")) > 1:
                continue
            if amount_after(text, run.end) or not has_trigger(text, run.start, run.end):
                continue
            if organisation_before(text, run.start, ctx):  # 对公账户, an organisation's account
                continue
            yield Hit(run.start, run.end, message="unmasked bank account number")


class Passport(Rule):
    id = "sensitive/passport"
    description = (
        "an unmasked passport or travel-permit number after its label (护照号码, 港澳通行证, "
        "Passport No.)"
    )
    bad = (
        "护照号码：E12345678",
        "往来港澳通行证：C12345678",
        "Passport No. EA1234567",
        "Passport\nNo.: E12345678",
        "港澳通行证号码 CA1234567",
        "护照号码：Ｅ１２３４５６７８",
    )
    good = (
        "护照号码：E1234****",
        "护照有效期：2030年1月1日",
        "护照：见附件",
        "护照号码：E12345678X1",
        "Passport No.: [REDACTED]",
        "护照签发地：北京",
    )
    # the value starts with a letter: the plate rule's trigger (one scan for both), and a
    # full-width digit for values typed in full width
    trigger = TRIGGER

    # the label and what may stand between it and the value, right before the value
    _label = lazy_re.compile(
        r"(?:护照|通行证|台胞证|回乡证|[Pp]assport|PASSPORT)"
        r"(?:[ \t]{0,4}(?:\r?\n[ \t　]{0,8})?(?:号码|号|编号|[Nn]o\.?|NO\.?|[Nn]umber|NUMBER|#))?"
        + _LINE_GAP
        + r"\Z"
    )

    def find(self, text: str, ctx: RuleContext) -> Iterable[Hit]:
        from .formats import lettered

        for m in lettered(text, ctx, SERIAL_PARTS):
            if m.group("serial") is None:
                continue
            start, end = m.span()
            if not (free_left(text, start) and free_right(text, end)):
                continue
            if not self._label.search(text, max(0, start - 40), start):
                continue
            if has_trigger(text, start, end):
                yield Hit(start, end, message="unmasked passport or travel-permit number")


class PersonName(Rule):
    id = "sensitive/person-name"
    description = (
        "a person's name after its label (姓名：张三) that is not masked (张某, 张**); "
        "off by default, select it by id"
    )
    bad = (
        "姓名：张三，性别：男",
        "联系人: 欧阳娜娜",
        "收件人：李小明 电话：***",
        "持卡人：王芳。",
        "被告：李四，男，1980年出生",
    )
    good = (
        "姓名：张某",
        "姓名：张**",
        "姓名：***",
        "姓名：见附件",
        "姓名：",
        "被告：张某某，男",
        "原告：中国银行股份有限公司",
    )
    trigger = (
        *("姓名", "联系人", "收件人", "收货人", "户名", "持卡人", "代表人", "委托人", "代理人"),
        *("原告", "被告", "上诉人", "申请人", "第三人", "当事人", "证人", "被害人", "嫌疑人"),
    )
    default = False

    _pattern = lazy_re.compile(
        r"(?:姓名|联系人|收件人|收货人|开户名|户名|持卡人|法定代表人|委托代理人|委托人|代理人"
        # the parties of a judgment or a claim
        r"|原告|被告人|被告|被上诉人|上诉人|被申请人|申请人|第三人|当事人|证人|被害人|犯罪嫌疑人)"
        r"[ \t　]{0,8}[:：][ \t　]{0,8}(?P<value>[\u4e00-\u9fff]{2,4}(?:[·•][\u4e00-\u9fff]{2,6})?)"
    )
    # a label that may follow a name without a comma: 姓名：张三性别：男
    _next_label = lazy_re.compile(
        r"性别|年龄|民族|出生|身份|电话|手机|住址|地址|职业|籍贯|联系|男|女|先生|女士"
    )
    # 王女士, 李经理: a surname with a title already keeps the person unnamed
    _title = lazy_re.compile(r".(?:先生|女士|小姐|老师|经理|律师|法官|总|某)|.\Z")
    _not_names = frozenset(
        [
            "见附件",
            "不详",
            "未知",
            "本人",
            "签字",
            "签名",
            "盖章",
            "同上",
            "如下",
            "待定",
            "匿名",
            "无",
        ]
    )

    def find(self, text: str, ctx: RuleContext) -> Iterable[Hit]:
        from ..placeholder.words import COMPOUND_SURNAMES, SURNAMES

        for m in ctx.finditer(self._pattern, text):
            start, end = m.span("value")
            value = m.group("value")
            cut = self._next_label.search(value, 2)
            if cut is not None:
                end, value = start + cut.start(), value[: cut.start()]
            after = text[end : end + 1]
            # still followed by Han text: a sentence, not a name; a mask glued on: masked
            if after and ("\u4e00" <= after <= "\u9fff" or after in "*＊×xX"):
                continue
            if masked(value) or value in self._not_names or self._title.match(value):
                continue
            if not (value[0] in SURNAMES or value.startswith(COMPOUND_SURNAMES)):
                continue
            yield Hit(start, end, message="unmasked person's name")


class Address(Rule):
    id = "sensitive/address"
    description = (
        "a street address after its label (住址：…路…号) that is not masked; off by default, "
        "select it by id"
    )
    bad = (
        "住址：北京市朝阳区建国路88号",
        "家庭住址: 广州市天河区体育西路100号3栋201室，电话***",
        "Address: 88 Jianguo Road, Beijing",
        "收货地址：上海市浦东新区世纪大道1号",
    )
    good = (
        "住址：北京市朝阳区***",
        "住址：北京市朝阳区××路××号",
        "住址：北京市朝阳区",
        "地址：见附件",
        "住址：某某路某号",
    )
    trigger = ("住址", "地址", "住所", "居住地", "户籍地", "ddress", "DDRESS")
    default = False

    _pattern = lazy_re.compile(
        r"(?:住址|地址|住所地?|居住地|户籍地(?:址)?|[Aa]ddress|ADDRESS)"
        r"[ \t　]{0,8}[:：][ \t　]{0,8}(?P<value>[^\n\r\t，,。；;|]{4,80})"
    )
    _street = lazy_re.compile(r"路|街|大道|巷|弄|胡同|村|里|道|[Rr]oad|[Ss]treet|[Aa]venue")
    _number = lazy_re.compile(
        r"[0-9０-９一二三四五六七八九十百零〇]+[号栋幢室楼组弄]|[Nn]o\.\s*[0-9]+|^[0-9]+[A-Za-z]?\s+[A-Z]"
    )
    # where an address written on one line ends: the next label, or a phone or postal code
    # after it (which its own rule reports: one span must not swallow another)
    _next_label = lazy_re.compile(
        r"\s{2,}|\s*(?:电话|手机|邮编|联系|身份证|姓名|Tel|TEL)"
        r"|\s*[+＋(（]?[0-9０-９][0-9０-９ \-)）]{5,}[0-9０-９]"
    )

    def find(self, text: str, ctx: RuleContext) -> Iterable[Hit]:
        for m in ctx.finditer(self._pattern, text):
            start, end = m.span("value")
            value = m.group("value")
            cut = self._next_label.search(value)
            if cut is not None:
                value = value[: cut.start()]
            value = value.rstrip()
            end = start + len(value)
            if masked(value) or not self._street.search(value):
                continue
            if not self._number.search(value):
                continue
            yield Hit(start, end, message="unmasked address")


__all__ = ["Address", "BankAccount", "Passport", "PersonName"]
