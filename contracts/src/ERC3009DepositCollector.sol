// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";

/// The ERC-3009 entry point of tokens such as USDC (FiatTokenV2_2's bytes-signature form).
interface IERC3009 {
    function receiveWithAuthorization(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        bytes memory signature
    ) external;
}

/**
 * Moves a channel deposit from the payer into the settlement contract with the payer's ERC-3009
 * `ReceiveWithAuthorization` (to = this collector), so the deposit is gasless for the payer.
 * The authorization's nonce is keccak256(abi.encode(channelId, salt)): a signature is bound to one channel.
 * `data` = abi.encode(uint256 validAfter, uint256 validBefore, uint256 salt, bytes signature).
 * Only the settlement contract may call it (it credits the channel and checks that the tokens arrived).
 */
contract ERC3009DepositCollector {
    using SafeERC20 for IERC20;

    /// The canonical x402BatchSettlement address (the same on every chain).
    address public constant SETTLEMENT = 0x4020074e9dF2ce1deE5A9C1b5c3f541D02a10003;

    error OnlySettlement();

    function collect(address payer, address token, uint256 amount, bytes32 channelId, bytes calldata data) external {
        if (msg.sender != SETTLEMENT) revert OnlySettlement();
        (uint256 validAfter, uint256 validBefore, uint256 salt, bytes memory signature) =
            abi.decode(data, (uint256, uint256, uint256, bytes));
        bytes32 nonce = keccak256(abi.encode(channelId, salt));
        IERC3009(token).receiveWithAuthorization(payer, address(this), amount, validAfter, validBefore, nonce, signature);
        IERC20(token).safeTransfer(SETTLEMENT, amount);
    }
}
