// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {SignatureChecker} from "@openzeppelin/contracts/utils/cryptography/SignatureChecker.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";

/// A deposit collector pulls `amount` of `token` from `payer` into the settlement contract (msg.sender).
interface IDepositCollector {
    function collect(address payer, address token, uint256 amount, bytes32 channelId, bytes calldata data) external;
}

/**
 * Payment channels of the x402 `batch-settlement` scheme (EVM), written from the scheme's specification
 * (specs/schemes/batch-settlement/scheme_batch_settlement_evm.md). A payer deposits into a channel once; the
 * receiver claims cumulative EIP-712 vouchers of many channels in one call and sweeps the claimed funds with
 * `settle`. Unclaimed escrow goes back by cooperative refund or the payer's timed withdrawal.
 *
 * No constructor state and no immutables: the runtime code alone is the contract, so a dev chain can install it
 * at the canonical address with `anvil_setCode`. The EIP-712 domain is computed from `block.chainid` and
 * `address(this)` on every use.
 */
contract X402BatchSettlement is ReentrancyGuardTransient {
    using SafeERC20 for IERC20;

    struct ChannelConfig {
        address payer;
        address payerAuthorizer;
        address receiver;
        address receiverAuthorizer;
        address token;
        uint40 withdrawDelay;
        bytes32 salt;
    }

    struct Voucher {
        ChannelConfig channel;
        uint128 maxClaimableAmount;
    }

    struct VoucherClaim {
        Voucher voucher;
        bytes signature;
        uint128 totalClaimed;
    }

    struct ChannelState {
        uint128 balance;
        uint128 totalClaimed;
    }

    struct Withdrawal {
        uint128 amount;
        uint40 initiatedAt;
    }

    struct ReceiverState {
        uint128 totalClaimed;
        uint128 totalSettled;
    }

    uint40 public constant MIN_WITHDRAW_DELAY = 900;
    uint40 public constant MAX_WITHDRAW_DELAY = 2_592_000;

    bytes32 private constant DOMAIN_TYPEHASH =
        keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)");
    bytes32 private constant NAME_HASH = keccak256("x402 Batch Settlement");
    bytes32 private constant VERSION_HASH = keccak256("1");

    bytes32 public constant CHANNEL_CONFIG_TYPEHASH = keccak256(
        "ChannelConfig(address payer,address payerAuthorizer,address receiver,address receiverAuthorizer,address token,uint40 withdrawDelay,bytes32 salt)"
    );
    bytes32 public constant VOUCHER_TYPEHASH = keccak256("Voucher(bytes32 channelId,uint128 maxClaimableAmount)");
    bytes32 public constant REFUND_TYPEHASH = keccak256("Refund(bytes32 channelId,uint256 nonce,uint128 amount)");
    bytes32 public constant CLAIM_ENTRY_TYPEHASH =
        keccak256("ClaimEntry(bytes32 channelId,uint128 maxClaimableAmount,uint128 totalClaimed)");
    bytes32 public constant CLAIM_BATCH_TYPEHASH = keccak256(
        "ClaimBatch(ClaimEntry[] claims)ClaimEntry(bytes32 channelId,uint128 maxClaimableAmount,uint128 totalClaimed)"
    );

    mapping(bytes32 channelId => ChannelState) public channels;
    mapping(bytes32 channelId => Withdrawal) public pendingWithdrawals;
    mapping(bytes32 channelId => uint256) public refundNonce;
    mapping(address receiver => mapping(address token => ReceiverState)) public receivers;

    event ChannelCreated(bytes32 indexed channelId, ChannelConfig config);
    event ChannelClosed(bytes32 indexed channelId, ChannelConfig config);
    event Deposited(bytes32 indexed channelId, address indexed sender, uint128 amount, uint128 balance);
    event Claimed(bytes32 indexed channelId, address indexed sender, uint128 amount, uint128 totalClaimed);
    event Settled(address indexed receiver, address indexed token, address indexed sender, uint128 amount);
    event WithdrawInitiated(bytes32 indexed channelId, uint128 amount, uint40 initiatedAt);
    event WithdrawFinalized(bytes32 indexed channelId, uint128 amount);
    event Refunded(bytes32 indexed channelId, address indexed sender, uint128 amount, uint256 nonce);

    error InvalidWithdrawDelay();
    error InvalidReceiverAuthorizer();
    error ZeroAmount();
    error DepositNotReceived();
    error NotReceiverSide();
    error NotPayerSide();
    error InvalidVoucherSignature();
    error InvalidAuthorizerSignature();
    error MixedReceiverAuthorizers();
    error ClaimAboveVoucher();
    error ClaimAboveBalance();
    error AmountAboveUnclaimed();
    error NoPendingWithdrawal();
    error WithdrawDelayNotElapsed();
    error RefundNonceMismatch();
    error EmptyBatch();

    // ---------------------------------------------------------------- EIP-712

    function _domainSeparator() private view returns (bytes32) {
        return keccak256(abi.encode(DOMAIN_TYPEHASH, NAME_HASH, VERSION_HASH, block.chainid, address(this)));
    }

    function _typedDigest(bytes32 structHash) private view returns (bytes32) {
        return keccak256(abi.encodePacked("\x19\x01", _domainSeparator(), structHash));
    }

    /// The channel's id: the EIP-712 digest of its config under this contract's domain (binds chain and deployment).
    function getChannelId(ChannelConfig calldata config) public view returns (bytes32) {
        return _typedDigest(keccak256(abi.encode(CHANNEL_CONFIG_TYPEHASH, config)));
    }

    function getVoucherDigest(bytes32 channelId, uint128 maxClaimableAmount) public view returns (bytes32) {
        return _typedDigest(keccak256(abi.encode(VOUCHER_TYPEHASH, channelId, maxClaimableAmount)));
    }

    function getRefundDigest(bytes32 channelId, uint256 nonce, uint128 amount) public view returns (bytes32) {
        return _typedDigest(keccak256(abi.encode(REFUND_TYPEHASH, channelId, nonce, amount)));
    }

    function getClaimBatchDigest(VoucherClaim[] calldata voucherClaims) public view returns (bytes32) {
        bytes32[] memory entries = new bytes32[](voucherClaims.length);
        for (uint256 i = 0; i < voucherClaims.length; i++) {
            VoucherClaim calldata c = voucherClaims[i];
            entries[i] = keccak256(
                abi.encode(
                    CLAIM_ENTRY_TYPEHASH, getChannelId(c.voucher.channel), c.voucher.maxClaimableAmount, c.totalClaimed
                )
            );
        }
        return _typedDigest(keccak256(abi.encode(CLAIM_BATCH_TYPEHASH, keccak256(abi.encodePacked(entries)))));
    }

    // ---------------------------------------------------------------- deposits

    /// Credits `amount` to the config's channel, pulled from the payer by `collector` (which proves the payer's consent).
    function deposit(ChannelConfig calldata config, uint128 amount, address collector, bytes calldata collectorData)
        external
        nonReentrant
    {
        if (config.withdrawDelay < MIN_WITHDRAW_DELAY || config.withdrawDelay > MAX_WITHDRAW_DELAY) {
            revert InvalidWithdrawDelay();
        }
        if (config.receiverAuthorizer == address(0)) revert InvalidReceiverAuthorizer();
        if (amount == 0) revert ZeroAmount();
        bytes32 channelId = getChannelId(config);
        IERC20 token = IERC20(config.token);
        uint256 before = token.balanceOf(address(this));
        IDepositCollector(collector).collect(config.payer, config.token, amount, channelId, collectorData);
        if (token.balanceOf(address(this)) - before != amount) revert DepositNotReceived();

        ChannelState storage ch = channels[channelId];
        bool created = ch.balance == 0 && ch.totalClaimed == 0;
        ch.balance += amount;
        if (created) emit ChannelCreated(channelId, config);
        emit Deposited(channelId, msg.sender, amount, ch.balance);
    }

    // ---------------------------------------------------------------- claims and sweep

    /// Claims the latest vouchers of many channels; the caller is each row's receiver or receiver authorizer.
    function claim(VoucherClaim[] calldata voucherClaims) external nonReentrant {
        for (uint256 i = 0; i < voucherClaims.length; i++) {
            ChannelConfig calldata cfg = voucherClaims[i].voucher.channel;
            if (msg.sender != cfg.receiver && msg.sender != cfg.receiverAuthorizer) revert NotReceiverSide();
            _claim(voucherClaims[i]);
        }
    }

    /// The same, relayed by anyone with a `ClaimBatch` signature of the rows' one receiver authorizer.
    function claimWithSignature(VoucherClaim[] calldata voucherClaims, bytes calldata authorizerSignature)
        external
        nonReentrant
    {
        if (voucherClaims.length == 0) revert EmptyBatch();
        address authorizer = voucherClaims[0].voucher.channel.receiverAuthorizer;
        for (uint256 i = 1; i < voucherClaims.length; i++) {
            if (voucherClaims[i].voucher.channel.receiverAuthorizer != authorizer) revert MixedReceiverAuthorizers();
        }
        if (!SignatureChecker.isValidSignatureNow(authorizer, getClaimBatchDigest(voucherClaims), authorizerSignature))
        {
            revert InvalidAuthorizerSignature();
        }
        for (uint256 i = 0; i < voucherClaims.length; i++) {
            _claim(voucherClaims[i]);
        }
    }

    /// Raises a channel's claimed total to the row's `totalClaimed` (never lowers it: an older row is a no-op).
    function _claim(VoucherClaim calldata c) private {
        ChannelConfig calldata cfg = c.voucher.channel;
        bytes32 channelId = getChannelId(cfg);
        if (c.totalClaimed > c.voucher.maxClaimableAmount) revert ClaimAboveVoucher();
        ChannelState storage ch = channels[channelId];
        if (c.totalClaimed <= ch.totalClaimed) return;
        if (c.totalClaimed > ch.balance) revert ClaimAboveBalance();
        _checkVoucher(cfg, getVoucherDigest(channelId, c.voucher.maxClaimableAmount), c.signature);
        uint128 delta = c.totalClaimed - ch.totalClaimed;
        ch.totalClaimed = c.totalClaimed;
        receivers[cfg.receiver][cfg.token].totalClaimed += delta;
        emit Claimed(channelId, msg.sender, delta, c.totalClaimed);
    }

    /// Vouchers are signed by the payer authorizer (an EOA, plain ECDSA) or, when it is zero, by the payer (EIP-1271 too).
    function _checkVoucher(ChannelConfig calldata cfg, bytes32 digest, bytes calldata signature) private view {
        bool ok;
        if (cfg.payerAuthorizer != address(0)) {
            (address signer, ECDSA.RecoverError err,) = ECDSA.tryRecover(digest, signature);
            ok = err == ECDSA.RecoverError.NoError && signer == cfg.payerAuthorizer;
        } else {
            ok = SignatureChecker.isValidSignatureNow(cfg.payer, digest, signature);
        }
        if (!ok) revert InvalidVoucherSignature();
    }

    /// Sweeps everything claimed and not yet settled for (receiver, token) to the receiver. Permissionless.
    function settle(address receiver, address token) external nonReentrant {
        ReceiverState storage r = receivers[receiver][token];
        uint128 amount = r.totalClaimed - r.totalSettled;
        r.totalSettled = r.totalClaimed;
        if (amount > 0) IERC20(token).safeTransfer(receiver, amount);
        emit Settled(receiver, token, msg.sender, amount);
    }

    // ---------------------------------------------------------------- timed withdrawal (the payer's escape hatch)

    function initiateWithdraw(ChannelConfig calldata config, uint128 amount) external nonReentrant {
        _requirePayerSide(config);
        if (amount == 0) revert ZeroAmount();
        bytes32 channelId = getChannelId(config);
        ChannelState storage ch = channels[channelId];
        if (amount > ch.balance - ch.totalClaimed) revert AmountAboveUnclaimed();
        pendingWithdrawals[channelId] = Withdrawal(amount, uint40(block.timestamp));
        emit WithdrawInitiated(channelId, amount, uint40(block.timestamp));
    }

    /// After the delay, pays out the pending amount, capped at the unclaimed escrow left now.
    function finalizeWithdraw(ChannelConfig calldata config) external nonReentrant {
        _requirePayerSide(config);
        bytes32 channelId = getChannelId(config);
        Withdrawal memory w = pendingWithdrawals[channelId];
        if (w.initiatedAt == 0) revert NoPendingWithdrawal();
        if (block.timestamp < uint256(w.initiatedAt) + config.withdrawDelay) revert WithdrawDelayNotElapsed();
        delete pendingWithdrawals[channelId];
        ChannelState storage ch = channels[channelId];
        uint128 unclaimed = ch.balance - ch.totalClaimed;
        uint128 amount = w.amount < unclaimed ? w.amount : unclaimed;
        ch.balance -= amount;
        if (amount > 0) IERC20(config.token).safeTransfer(config.payer, amount);
        emit WithdrawFinalized(channelId, amount);
        _closeIfDrained(channelId, config, ch);
    }

    function _requirePayerSide(ChannelConfig calldata config) private view {
        if (msg.sender != config.payer && (config.payerAuthorizer == address(0) || msg.sender != config.payerAuthorizer))
        {
            revert NotPayerSide();
        }
    }

    // ---------------------------------------------------------------- cooperative refund

    function refund(ChannelConfig calldata config, uint128 amount) external nonReentrant {
        if (msg.sender != config.receiver && msg.sender != config.receiverAuthorizer) revert NotReceiverSide();
        _refund(config, getChannelId(config), amount);
    }

    function refundWithSignature(
        ChannelConfig calldata config,
        uint128 amount,
        uint256 nonce,
        bytes calldata receiverAuthorizerSignature
    ) external nonReentrant {
        bytes32 channelId = getChannelId(config);
        if (nonce != refundNonce[channelId]) revert RefundNonceMismatch();
        if (!SignatureChecker.isValidSignatureNow(
                config.receiverAuthorizer, getRefundDigest(channelId, nonce, amount), receiverAuthorizerSignature
            )) revert InvalidAuthorizerSignature();
        _refund(config, channelId, amount);
    }

    /// The nonce moves first, then the amount is capped at the unclaimed escrow (a refund of nothing still moves it).
    function _refund(ChannelConfig calldata config, bytes32 channelId, uint128 requested) private {
        if (requested == 0) revert ZeroAmount();
        uint256 nonce = refundNonce[channelId]++;
        ChannelState storage ch = channels[channelId];
        uint128 unclaimed = ch.balance - ch.totalClaimed;
        uint128 amount = requested < unclaimed ? requested : unclaimed;
        if (amount == 0) return;
        ch.balance -= amount;
        Withdrawal storage w = pendingWithdrawals[channelId];
        if (w.initiatedAt != 0) {
            if (amount >= w.amount) delete pendingWithdrawals[channelId];
            else w.amount -= amount;
        }
        IERC20(config.token).safeTransfer(config.payer, amount);
        emit Refunded(channelId, msg.sender, amount, nonce);
        _closeIfDrained(channelId, config, ch);
    }

    function _closeIfDrained(bytes32 channelId, ChannelConfig calldata config, ChannelState storage ch) private {
        if (ch.balance == 0 && ch.totalClaimed == 0) emit ChannelClosed(channelId, config);
    }

    // ---------------------------------------------------------------- batching

    /// Several calls of this contract in one transaction (e.g. claim then settle). Each call keeps its own guard.
    function multicall(bytes[] calldata data) external returns (bytes[] memory results) {
        results = new bytes[](data.length);
        for (uint256 i = 0; i < data.length; i++) {
            (bool ok, bytes memory ret) = address(this).delegatecall(data[i]);
            if (!ok) {
                assembly ("memory-safe") {
                    revert(add(ret, 32), mload(ret))
                }
            }
            results[i] = ret;
        }
    }
}
